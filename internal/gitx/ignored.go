package gitx

import (
	"context"
	"strings"
)

// IgnoredPaths lists the untracked paths under dir that the ignore rules
// match, as `git ls-files --others --ignored --directory` does: a folder
// whose every file is ignored is listed once, with a trailing slash, and
// not entered. With excludeFrom "" the rules are the repository's own
// (.gitignore files, .git/info/exclude, core.excludesFile); else they are
// only the patterns in that file (gitignore syntax). Paths are relative
// to dir, slash-separated.
//
// The folders notEntered (relative to dir) are listed as ignored, never
// walked: git reads the .git file of every repository it meets on its
// walk, and a worktree that another process is adding or removing there
// (autobuild's own, under .autobuild/worktrees) can fail the whole command
// with "failed to read .../commondir".
func IgnoredPaths(ctx context.Context, dir, excludeFrom string, notEntered ...string) ([]string, error) {
	args := []string{"ls-files", "-z", "--others", "--ignored", "--directory"}
	if excludeFrom == "" {
		args = append(args, "--exclude-standard")
	} else {
		args = append(args, "--exclude-from="+excludeFrom)
	}
	for _, d := range notEntered {
		args = append(args, "--exclude=/"+strings.Trim(d, "/")+"/")
	}
	out, err := run(ctx, dir, runOpts{}, args...)
	if err != nil {
		return nil, err
	}
	var paths []string
	for p := range strings.SplitSeq(out, "\x00") {
		if p != "" {
			paths = append(paths, p)
		}
	}
	return paths, nil
}
