package gitx

import (
	"context"
	"fmt"
	"strconv"

	"github.com/autobuild-sh/autobuild/internal/lazyre"
)

// LineRange is a span of lines, 1-based and inclusive, in the old version of
// a file. A pure insertion is {a, a}: "after line a" (a is 0 at the top).
type LineRange struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// String renders the range as "10-25", or "12" for one line.
func (r LineRange) String() string {
	if r.Start == r.End {
		return strconv.Itoa(r.Start)
	}
	return fmt.Sprintf("%d-%d", r.Start, r.End)
}

// hunkHeader matches "@@ -a,b +c,d @@"; the counts are optional (1).
var hunkHeader = lazyre.New(`(?m)^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@`)

// ChangedRanges returns the hunks of `git diff -U0 from to -- file` (run in
// the repository or worktree at dir) as ranges of the old file's lines, in
// file order. A binary file has none.
func ChangedRanges(ctx context.Context, dir, from, to, file string) ([]LineRange, error) {
	c, err := ChangeOf(ctx, dir, from, to, file)
	return c.Ranges, err
}

// FileChange is how a commit changed one file: the ranges of the old
// file's lines it changed, or that it created the file (no old lines).
type FileChange struct {
	Ranges  []LineRange
	Created bool
}

// ChangeOf is ChangedRanges that also says whether the file was created
// between from and to (its diff is from /dev/null).
func ChangeOf(ctx context.Context, dir, from, to, file string) (FileChange, error) {
	out, err := run(ctx, dir, runOpts{}, "diff", "-U0", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", from, to, "--", file)
	if err != nil {
		return FileChange{}, err
	}
	return FileChange{Ranges: parseHunks(out), Created: createdRE().MatchString(out)}, nil
}

// createdRE matches the header of a diff that creates its file.
var createdRE = lazyre.New(`(?m)^(?:new file mode \d+|--- /dev/null)$`)

// parseHunks reads the hunk headers of a -U0 diff.
func parseHunks(diff string) []LineRange {
	var rs []LineRange
	for _, m := range hunkHeader().FindAllStringSubmatch(diff, -1) {
		start, _ := strconv.Atoi(m[1])
		count := 1
		if m[2] != "" {
			count, _ = strconv.Atoi(m[2])
		}
		if count == 0 {
			rs = append(rs, LineRange{Start: start, End: start})
			continue
		}
		rs = append(rs, LineRange{Start: start, End: start + count - 1})
	}
	return rs
}

// Overlap reports whether any range of a shares a line with any range of b.
// An insertion after line n counts as touching line n, so an insertion and
// an edit of that line overlap, as they do for git's merge.
func Overlap(a, b []LineRange) bool {
	for _, x := range a {
		for _, y := range b {
			if x.Start <= y.End && y.Start <= x.End {
				return true
			}
		}
	}
	return false
}
