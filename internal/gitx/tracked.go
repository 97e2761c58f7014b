package gitx

import (
	"context"
	"path/filepath"
	"strings"
)

// Tracked returns the paths under path (relative to the root) that the
// index of the root's work tree holds, symbolic links and gitlinks
// included.
func (r *Repo) Tracked(ctx context.Context, path string) ([]string, error) {
	out, err := run(ctx, r.root, runOpts{env: noOptionalLocks}, "ls-files", "-z", "--", path)
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

// ConfigPath returns the path of the repository's config file (in the
// common git dir, shared by every worktree).
func (r *Repo) ConfigPath() string { return filepath.Join(r.commonDir, "config") }

// MainStatus returns `git status --porcelain -z --untracked-files=all` of
// the root's work tree: what differs from HEAD, untracked files one by one.
func (r *Repo) MainStatus(ctx context.Context) (string, error) {
	return run(ctx, r.root, runOpts{env: noOptionalLocks}, "status", "--porcelain=v1", "-z", "--untracked-files=all")
}
