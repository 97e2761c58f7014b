package gitx

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// SnapshotTree records what the worktree at dir holds, tracked and
// untracked files alike (ignored ones aside, as a commit would), as a git
// tree object, and returns its id. It uses a private index, so the
// worktree's own index, HEAD and files are left as they are. The engine
// takes one after the agent and before the gates, so that RestoreTree can
// put back whatever the gates changed.
func SnapshotTree(ctx context.Context, dir string) (string, error) {
	return withTempIndex(dir, func(env []string) (string, error) {
		o := runOpts{env: env}
		// A copy of the worktree's own index spares hashing every file
		// again: its cached stat data tells add which files changed.
		if own, err := run(ctx, dir, runOpts{}, "rev-parse", "--path-format=absolute", "--git-path", "index"); err == nil {
			_ = copyFile(strings.TrimSpace(own), strings.TrimPrefix(env[0], "GIT_INDEX_FILE="))
		}
		if _, err := run(ctx, dir, o, "add", "-A", "--", "."); err != nil {
			return "", err
		}
		out, err := run(ctx, dir, o, "write-tree")
		if err != nil {
			return "", err
		}
		return strings.TrimSpace(out), nil
	})
}

// RestoreTree makes the worktree at dir hold tree again, as SnapshotTree
// took it: files created since are removed (with the directories that
// held only them), files changed or deleted since are written back. It
// returns the paths it put back, sorted; none when nothing changed. Ignored
// files are not looked at: a commit would not take them either.
func RestoreTree(ctx context.Context, dir, tree string) ([]string, error) {
	now, err := SnapshotTree(ctx, dir)
	if err != nil {
		return nil, err
	}
	if now == tree {
		return nil, nil
	}
	out, err := run(ctx, dir, runOpts{}, "diff-tree", "-r", "-z", "--no-renames", "--name-status", tree, now)
	if err != nil {
		return nil, err
	}
	ch := parseNameStatus(out)
	for _, f := range ch.Created {
		if err := removeCreated(dir, f); err != nil {
			return nil, err
		}
	}
	back := append(append([]string(nil), ch.Modified...), ch.Deleted...)
	if len(back) > 0 {
		_, err := withTempIndex(dir, func(env []string) (string, error) {
			o := runOpts{env: env}
			if _, err := run(ctx, dir, o, "read-tree", tree); err != nil {
				return "", err
			}
			o.stdin = strings.NewReader(strings.Join(back, "\x00") + "\x00")
			return run(ctx, dir, o, "checkout-index", "-f", "-z", "--stdin")
		})
		if err != nil {
			return nil, err
		}
	}
	all := append(append([]string(nil), ch.Created...), back...)
	slices.Sort(all)
	return all, nil
}

// removeCreated removes the file rel under dir and then its parent
// directories up to dir while they are empty.
func removeCreated(dir, rel string) error {
	path := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("removing %s, which the gates created: %w", rel, err)
	}
	for d := filepath.Dir(path); d != dir && strings.HasPrefix(d, dir+string(filepath.Separator)); d = filepath.Dir(d) {
		if os.Remove(d) != nil {
			break // not empty, or gone
		}
	}
	return nil
}

// withTempIndex runs f with GIT_INDEX_FILE pointing at a fresh index file
// of its own, removed afterwards.
func withTempIndex(dir string, f func(env []string) (string, error)) (string, error) {
	tmp, err := os.MkdirTemp("", "autobuild-index-")
	if err != nil {
		return "", fmt.Errorf("snapshot of %s: %w", dir, err)
	}
	defer os.RemoveAll(tmp)
	return f([]string{"GIT_INDEX_FILE=" + filepath.Join(tmp, "index")})
}

// copyFile copies src to dst (a new file); a missing src is an error the
// caller may ignore.
func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o600)
}
