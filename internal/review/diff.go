package review

import (
	"strings"
)

// File is one file of a change: its path, what happened to it, its lines
// added and removed, and its hunks.
type File struct {
	Path string
	// Status is "added", "modified", "deleted" or "renamed".
	Status         string
	Added, Removed int
	Binary         bool
	Hunks          []Hunk
}

// Hunk is one hunk of a file's diff: its @@ header and its lines, each
// starting with ' ', '+', '-' or '\'.
type Hunk struct {
	Header string
	Lines  []string
}

// ParseDiff reads a git patch (git diff's output) into its files, in order.
// Text it does not know is skipped: it only shows a change, it applies
// none.
func ParseDiff(patch string) []File {
	var (
		files []File
		f     *File
		h     *Hunk
	)
	for _, line := range strings.Split(strings.TrimRight(patch, "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "diff --git "):
			files = append(files, File{Path: diffPath(line), Status: "modified"})
			f, h = &files[len(files)-1], nil
		case f == nil:
		case h == nil && strings.HasPrefix(line, "new file mode"):
			f.Status = "added"
		case h == nil && strings.HasPrefix(line, "deleted file mode"):
			f.Status = "deleted"
		case h == nil && strings.HasPrefix(line, "rename to "):
			f.Status, f.Path = "renamed", strings.TrimPrefix(line, "rename to ")
		case h == nil && strings.HasPrefix(line, "Binary files"):
			f.Binary = true
		case h == nil && (strings.HasPrefix(line, "+++ ") || strings.HasPrefix(line, "--- ")):
			if p := strings.TrimPrefix(line[4:], "b/"); strings.HasPrefix(line, "+++ ") && p != "/dev/null" {
				f.Path = p
			}
		case strings.HasPrefix(line, "@@"):
			f.Hunks = append(f.Hunks, Hunk{Header: line})
			h = &f.Hunks[len(f.Hunks)-1]
		case h != nil:
			h.Lines = append(h.Lines, line)
			switch {
			case strings.HasPrefix(line, "+"):
				f.Added++
			case strings.HasPrefix(line, "-"):
				f.Removed++
			}
		}
	}
	return files
}

// diffPath is the path of a "diff --git a/x b/x" line (the b side).
func diffPath(line string) string {
	rest := strings.TrimPrefix(line, "diff --git ")
	if i := strings.LastIndex(rest, " b/"); i >= 0 {
		return rest[i+3:]
	}
	return rest
}
