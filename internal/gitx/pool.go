package gitx

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A landed phase's worktree is not removed but parked, and the next phase
// takes it over: re-pointing a worktree costs git the files that differ
// between two nearby commits, where `worktree add` writes out the whole
// tree (4 s per phase at 10,000 files) and `worktree remove` deletes it
// again. The worktree moves with its phase, so it is always at
// worktrees/phase-<id> while its phase runs.

// ParkWorktree moves the worktree at path (its phase's work is landed) out
// of the phase's name to spare, branch and all: the branch is deleted with
// the run's others (DeleteBranches), not one git command per phase.
func (r *Repo) ParkWorktree(ctx context.Context, path, spare string) error {
	p, s := r.path(path), r.path(spare)
	return r.withWorktreeList(ctx, func() error {
		if err := r.guardAll(p, s); err != nil {
			return err
		}
		if err := r.ownWorktree(p); err != nil {
			return err
		}
		return r.moveWorktree(ctx, p, s)
	})
}

// DeleteBranches deletes the local branches names in one git command
// (`update-ref --stdin`); missing ones are fine. A branch checked out in a
// worktree is deleted too: the worktree is left on an unborn branch.
func (r *Repo) DeleteBranches(ctx context.Context, names []string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.deleteBranches(ctx, names)
}

// deleteBranches is DeleteBranches with r.mu held.
func (r *Repo) deleteBranches(ctx context.Context, names []string) error {
	if len(names) == 0 {
		return nil
	}
	var in strings.Builder
	for _, n := range names {
		in.WriteString("delete refs/heads/" + n + "\n")
	}
	_, err := r.write(ctx, "", runOpts{stdin: strings.NewReader(in.String())}, "update-ref", "--stdin")
	return err
}

// ReuseWorktree moves the spare worktree at spare to path and checks out
// branch there, reset to start (`checkout -f -B`), with every file the
// earlier phase left untracked or ignored removed (`clean -ffdx`): what a
// new worktree would hold. keep are `git clean -e` patterns of ignored
// files that stay (the files a worktree is given, brought up to date by
// the caller). Whatever is at path is removed first.
func (r *Repo) ReuseWorktree(ctx context.Context, spare, path, branch, start string, keep ...string) error {
	if err := r.moveSpare(ctx, spare, path); err != nil {
		return err
	}
	// The worktree is the caller's alone from here: the clean and the
	// checkout touch only its files, its index and its new branch, so they
	// do not hold up this process's other git commands.
	p := r.path(path)
	clean := []string{"clean", "-q", "-ffdx"}
	for _, k := range keep {
		clean = append(clean, "-e", k)
	}
	if _, err := r.write(ctx, p, runOpts{}, clean...); err != nil {
		return fmt.Errorf("emptying the reused worktree %s: %w", p, err)
	}
	_, err := r.write(ctx, p, runOpts{}, "checkout", "-q", "-f", "-B", branch, start)
	return withDiskNote(err, p)
}

// moveSpare moves the spare worktree to path, under the locks of the
// worktree list.
func (r *Repo) moveSpare(ctx context.Context, spare, path string) error {
	p, s := r.path(path), r.path(spare)
	return r.withWorktreeList(ctx, func() error {
		if err := r.guardAll(p, s); err != nil {
			return err
		}
		// Without its own .git file, git in the worktree would find your
		// repository around it: the clean and the checkout after the move
		// would act on your files and your branch.
		if err := r.ownWorktree(s); err != nil {
			return err
		}
		return r.moveWorktree(ctx, s, p)
	})
}

// moveWorktree moves the worktree at from to to, removing whatever is at
// to first. The caller holds the locks of the worktree list.
func (r *Repo) moveWorktree(ctx context.Context, from, to string) error {
	if _, err := os.Lstat(to); err == nil {
		if err := r.removeWorktree(ctx, to); err != nil {
			return err
		}
	}
	_, err := r.write(ctx, "", runOpts{}, "worktree", "move", from, to)
	return err
}

// withWorktreeList runs f holding r.mu and the lock on the repository's
// worktree list, which every change of the list takes.
func (r *Repo) withWorktreeList(ctx context.Context, f func() error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	unlock, err := r.lockWorktrees(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	return f()
}

// guardAll is guard for each path.
func (r *Repo) guardAll(paths ...string) error {
	for _, p := range paths {
		if err := r.guard(p); err != nil {
			return err
		}
	}
	return nil
}

// ownWorktree checks that p is a worktree of this repository: its .git is
// a file naming a directory under the repository's worktrees.
func (r *Repo) ownWorktree(p string) error {
	_, err := r.ownGitDir(p)
	return err
}

// ownGitDir is ownWorktree that also returns the git dir the .git file
// names.
func (r *Repo) ownGitDir(p string) (string, error) {
	fi, err := os.Lstat(filepath.Join(p, ".git"))
	if err != nil || !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a worktree of this repository (its .git file is missing or not a file): not touching it", p)
	}
	gitdir, err := worktreeGitDir(p)
	if err != nil {
		return "", err
	}
	worktrees := filepath.Join(r.commonDir, "worktrees")
	if !isUnder(gitdir, worktrees) && !isUnder(realPath(gitdir), realPath(worktrees)) {
		return "", fmt.Errorf("%s is not a worktree of this repository (its .git names %s): not touching it", p, gitdir)
	}
	return gitdir, nil
}

// realPath is p with its symbolic links resolved, or p when it cannot be.
func realPath(p string) string {
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	return p
}
