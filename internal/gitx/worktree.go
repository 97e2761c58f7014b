package gitx

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// AddWorktree creates a worktree at path with branch checked out, reset to
// start (`git worktree add -f -B branch path start`). Whatever a crashed run
// left at path, registered worktree or plain directory, is removed first.
// Only the worktree's registration holds the worktree lock: its files are
// written after (`reset --hard`), so phases that start together write
// theirs side by side.
func (r *Repo) AddWorktree(ctx context.Context, path, branch, start string) error {
	return r.AddWorktreeAlongside(ctx, path, branch, start, nil)
}

// AddWorktreeAlongside is AddWorktree that runs alongside (when not nil)
// in a goroutine of its own while git writes the worktree's tracked
// files, once the worktree's folder exists, and returns when both are
// done: the worktree is ready in the longer of the two, not their sum.
// alongside must write only paths git ignores there, which the checkout
// never writes (the ignored files a phase's worktree is given).
func (r *Repo) AddWorktreeAlongside(ctx context.Context, path, branch, start string, alongside func()) error {
	p := r.path(path)
	if err := r.registerWorktree(ctx, p, branch, start); err != nil {
		return err
	}
	done := make(chan struct{})
	if alongside != nil {
		go func() {
			defer close(done)
			alongside()
		}()
	} else {
		close(done)
	}
	// The worktree is the caller's alone from here, as in ReuseWorktree.
	_, err := r.write(ctx, p, runOpts{}, "reset", "-q", "--hard")
	<-done
	if err != nil {
		// Noted before the half-written files go (as worktree add's own
		// failure takes them): on a full disk they are what fills it.
		err = withDiskNote(err, filepath.Dir(p))
		_ = r.RemoveWorktree(context.WithoutCancel(ctx), p)
		return err
	}
	return nil
}

// registerWorktree is AddWorktree up to the files: the worktree registered,
// its branch at start, nothing checked out.
func (r *Repo) registerWorktree(ctx context.Context, p, branch, start string) error {
	return r.withWorktreeList(ctx, func() error {
		if err := r.guard(p); err != nil {
			return err
		}
		if _, err := os.Lstat(p); err == nil {
			if err := r.removeWorktree(ctx, p); err != nil {
				return err
			}
		} else if _, err := r.write(ctx, "", runOpts{}, "worktree", "prune"); err != nil {
			// A registration whose directory vanished would keep the branch
			// "checked out" there.
			return err
		}
		_, err := r.write(ctx, "", runOpts{}, "worktree", "add", "--no-checkout", "-f", "-B", branch, p, start)
		return withDiskNote(err, filepath.Dir(p))
	})
}

// RemoveWorktree removes the worktree at path, modified or not, and prunes
// its registration. A path that is already gone is fine.
func (r *Repo) RemoveWorktree(ctx context.Context, path string) error {
	return r.RemoveWorktrees(ctx, path)
}

// RemoveWorktrees removes the worktrees at paths as RemoveWorktree does,
// with one prune for them all. It carries on past failures and reports
// them all.
func (r *Repo) RemoveWorktrees(ctx context.Context, paths ...string) error {
	return r.withWorktreeList(ctx, func() error {
		var errs []error
		for _, path := range paths {
			p := r.path(path)
			if err := r.guard(p); err != nil {
				errs = append(errs, err)
				continue
			}
			errs = append(errs, r.removeWorktreeDir(ctx, p))
		}
		_, err := r.write(ctx, "", runOpts{}, "worktree", "prune")
		return errors.Join(append(errs, err)...)
	})
}

// removeWorktree removes p whether git knows it as a worktree or not, and
// prunes its registration. The caller holds r.mu and has checked p with
// guard.
func (r *Repo) removeWorktree(ctx context.Context, p string) error {
	if err := r.removeWorktreeDir(ctx, p); err != nil {
		return err
	}
	_, err := r.write(ctx, "", runOpts{}, "worktree", "prune")
	return err
}

// removeWorktreeDir is removeWorktree without the prune, for callers that
// remove several and prune once.
func (r *Repo) removeWorktreeDir(ctx context.Context, p string) error {
	// A symbolic link is removed as a link: git would remove the worktree
	// it points at (your own, elsewhere), and a plain removal stays on
	// this side of it.
	if fi, err := os.Lstat(p); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if err := os.Remove(p); err != nil {
			return fmt.Errorf("removing the link %s: %w", p, err)
		}
		return nil
	}
	// Not a worktree (a leftover directory) or already gone: the directory
	// removal below does the job, so this error says nothing useful.
	_, _ = r.write(ctx, "", runOpts{}, "worktree", "remove", "--force", "--force", p)
	if err := RemoveAll(p); err != nil {
		return fmt.Errorf("removing worktree %s: %w", p, err)
	}
	return nil
}

// guard refuses paths that must never be deleted as a worktree: the work
// tree root, a directory containing it, and the git directory.
func (r *Repo) guard(p string) error {
	if p == r.root || isUnder(r.root, p) || p == r.commonDir || isUnder(p, r.commonDir) {
		return fmt.Errorf("refusing to use %s as a worktree path: it holds the repository itself", p)
	}
	return nil
}

// DeleteBranch deletes the local branch name, merged or not. A missing
// branch is fine.
func (r *Repo) DeleteBranch(ctx context.Context, name string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.deleteBranch(ctx, name)
}

// deleteBranch is DeleteBranch with r.mu held.
func (r *Repo) deleteBranch(ctx context.Context, name string) error {
	if _, err := r.read(ctx, "", "show-ref", "--verify", "--quiet", "refs/heads/"+name); err != nil {
		if exitCode(err) == 1 {
			return nil
		}
		return err
	}
	_, err := r.write(ctx, "", runOpts{}, "branch", "-D", name)
	return err
}

// Branches returns the local branches whose names start with prefix, sorted.
func (r *Repo) Branches(ctx context.Context, prefix string) ([]string, error) {
	out, err := r.read(ctx, "", "for-each-ref", "--format=%(refname)", "refs/heads/")
	if err != nil {
		return nil, err
	}
	var names []string
	for _, ref := range lines(out) {
		name := strings.TrimPrefix(ref, "refs/heads/")
		if strings.HasPrefix(name, prefix) {
			names = append(names, name)
		}
	}
	return names, nil
}

// CleanStale removes everything a run left behind: every worktree under
// worktreesDir (registered or just a directory) and every branch whose name
// starts with branchPrefix (none when it is empty). It carries on past
// failures and reports them all.
func (r *Repo) CleanStale(ctx context.Context, worktreesDir, branchPrefix string) error {
	dir := r.path(worktreesDir)
	return r.withWorktreeList(ctx, func() error {
		if err := r.guard(dir); err != nil {
			return err
		}
		var errs []error
		registered, err := r.worktreePaths(ctx)
		if err != nil {
			return err
		}
		realDir, _ := filepath.EvalSymlinks(dir)
		for _, wt := range registered {
			if isUnder(wt, dir) || (realDir != "" && isUnder(wt, realDir)) {
				errs = append(errs, r.removeWorktreeDir(ctx, wt))
			}
		}
		entries, err := os.ReadDir(dir)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("reading %s: %w", dir, err))
		}
		for _, e := range entries {
			errs = append(errs, r.removeWorktreeDir(ctx, filepath.Join(dir, e.Name())))
		}
		if _, err := r.write(ctx, "", runOpts{}, "worktree", "prune"); err != nil {
			errs = append(errs, err)
		}
		if branchPrefix != "" {
			names, err := r.Branches(ctx, branchPrefix)
			errs = append(errs, err)
			if len(names) > 0 {
				// One command; branch -D goes on past a branch it cannot
				// delete, and never deletes the one your checkout is on.
				_, err := r.write(ctx, "", runOpts{}, append([]string{"branch", "-D"}, names...)...)
				errs = append(errs, err)
			}
		}
		return errors.Join(errs...)
	})
}

// worktreePaths lists the paths of all registered worktrees.
func (r *Repo) worktreePaths(ctx context.Context) ([]string, error) {
	out, err := r.read(ctx, "", "worktree", "list", "--porcelain")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, l := range lines(out) {
		if p, ok := strings.CutPrefix(l, "worktree "); ok {
			paths = append(paths, filepath.Clean(p))
		}
	}
	return paths, nil
}

// isUnder reports whether path lies strictly inside dir.
func isUnder(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// RemoveAll is os.RemoveAll that also copes with read-only directories
// (a Go module cache an agent created in its worktree, for one), which a
// plain RemoveAll cannot empty.
func RemoveAll(p string) error {
	if err := os.RemoveAll(p); err == nil {
		return nil
	}
	_ = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(path, 0o755)
		}
		return nil
	})
	return os.RemoveAll(p)
}
