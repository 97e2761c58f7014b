package wtenv

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/gitx"
)

// IncludeFile is the file at the repository root that lists, in gitignore
// syntax, the ignored files a phase's worktree gets (as Claude Code reads
// it).
const IncludeFile = ".worktreeinclude"

// Entry is one ignored file or folder of your checkout that each phase's
// worktree gets: Path is relative to the repository root, slash-separated,
// without a trailing slash.
type Entry struct {
	Path string
	Dir  bool
}

// String is the path as listed: a folder ends in a slash.
func (e Entry) String() string {
	if e.Dir {
		return e.Path + "/"
	}
	return e.Path
}

// Patterns are the include patterns: [worktree] copy, then the lines of
// .worktreeinclude at root (a missing file is none).
func Patterns(root string, copy []string) ([]string, error) {
	pats := slices.Clone(copy)
	data, err := os.ReadFile(filepath.Join(root, IncludeFile))
	if err != nil && !os.IsNotExist(err) {
		return nil, fmt.Errorf("reading %s: %w", IncludeFile, err)
	}
	for l := range strings.SplitSeq(string(data), "\n") {
		if l = strings.TrimRight(l, "\r"); strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "#") {
			pats = append(pats, l)
		}
	}
	return pats, nil
}

// Select lists the files and folders of the checkout at root that git
// ignores and that patterns include: what each phase's worktree gets.
// A tracked or untracked-but-not-ignored file is never selected (it is, or
// could be, committed), nor anything under .git or .autobuild. An ignored
// folder git lists whole is selected whole when a pattern matches it or a
// folder above it.
func Select(ctx context.Context, root string, patterns []string) ([]Entry, error) {
	m := newMatcher(patterns)
	if m.empty() {
		return nil, nil
	}
	ignored, err := gitx.IgnoredPaths(ctx, root, "", stateDirName)
	if err != nil {
		return nil, fmt.Errorf("listing the ignored files of %s: %w", root, err)
	}
	// git finds the included paths with the same walk, so a pattern is
	// read as git reads .gitignore; the matcher only drops the folders git
	// lists around them.
	inc, err := os.CreateTemp("", "autobuild-worktreeinclude-*")
	if err != nil {
		return nil, fmt.Errorf("writing the include patterns: %w", err)
	}
	defer os.Remove(inc.Name())
	_, werr := inc.WriteString(strings.Join(patterns, "\n") + "\n")
	if cerr := inc.Close(); werr != nil || cerr != nil {
		return nil, fmt.Errorf("writing the include patterns: %w", cmpErr(werr, cerr))
	}
	included, err := gitx.IgnoredPaths(ctx, root, inc.Name(), stateDirName)
	if err != nil {
		return nil, fmt.Errorf("listing the files %s and [worktree] copy name: %w", IncludeFile, err)
	}
	isIgnored := map[string]bool{}
	for _, p := range ignored {
		isIgnored[p] = true
	}
	// underIgnored: p or a folder above it is ignored as a whole.
	underIgnored := func(p string) bool {
		if isIgnored[p] {
			return true
		}
		for d := parentDir(p); d != ""; d = parentDir(d) {
			if isIgnored[d+"/"] {
				return true
			}
		}
		return false
	}
	var out []Entry
	seen := map[string]bool{}
	add := func(p string) {
		e := Entry{Path: strings.TrimSuffix(p, "/"), Dir: strings.HasSuffix(p, "/")}
		if skipped(e.Path) || seen[e.Path] {
			return
		}
		seen[e.Path] = true
		out = append(out, e)
	}
	for _, p := range included {
		if m.match(p, strings.HasSuffix(p, "/")) && underIgnored(p) {
			add(p)
		}
	}
	for _, p := range ignored {
		// An ignored part of a folder the patterns take whole.
		if d := parentDir(p); d != "" && m.match(d, true) {
			add(p)
		}
	}
	return outermost(out), nil
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// stateDirName is autobuild's folder at the root: never copied, and never
// walked when listing (the worktrees under it come and go during a run).
const stateDirName = ".autobuild"

// skipped are paths never copied: git's own and autobuild's.
func skipped(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return first == ".git" || first == stateDirName
}

// parentDir is the folder holding p ("" at the root), without a slash.
func parentDir(p string) string {
	p = strings.TrimSuffix(p, "/")
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return ""
	}
	return p[:i]
}

// outermost drops entries inside a selected folder, sorted by path.
func outermost(es []Entry) []Entry {
	dirs := map[string]bool{}
	for _, e := range es {
		if e.Dir {
			dirs[e.Path] = true
		}
	}
	var out []Entry
	for _, e := range es {
		inside := false
		for d := parentDir(e.Path); d != "" && !inside; d = parentDir(d) {
			inside = dirs[d]
		}
		if !inside {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	return out
}
