package gitx

import (
	"context"
	"fmt"
	"strings"
)

// ConflictError is a merge that stopped on conflicts and was undone: the
// work tree is as it was before.
type ConflictError struct {
	// Op is the git command ("merge --squash").
	Op string
	// Paths are the conflicted files, relative to the worktree root.
	Paths []string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("git %s: conflicts in %s (undone, the work tree is unchanged)", e.Op, strings.Join(e.Paths, ", "))
}

// unmerged lists the paths with unresolved conflicts in the worktree at dir.
func (r *Repo) unmerged(ctx context.Context, dir string) ([]string, error) {
	out, err := r.read(ctx, dir, "diff", "--name-only", "--diff-filter=U", "-z")
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

// FastForward moves the branch checked out in the worktree at dir forward
// to commit to (`git merge --ff-only`), updating its files. It fails, and
// changes nothing, when the branch has commits that to does not contain.
func (r *Repo) FastForward(ctx context.Context, dir, to string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, err := r.write(ctx, dir, runOpts{}, "merge", "--ff-only", "-q", to)
	return err
}

// SquashMerge brings the changes of ref into the worktree at dir, staged but
// not committed and without moving the branch (`git merge --squash`). On
// conflicts it undoes the merge and returns a *ConflictError.
func (r *Repo) SquashMerge(ctx context.Context, dir, ref string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, mergeErr := r.write(ctx, dir, runOpts{}, "merge", "--squash", ref)
	if mergeErr == nil {
		return nil
	}
	conflicted, err := r.unmerged(ctx, dir)
	if err != nil || len(conflicted) == 0 {
		return mergeErr
	}
	// reset --merge is what merge --abort does; a squash leaves no
	// MERGE_HEAD for merge --abort to act on. Changes the user had in other
	// files are kept.
	if _, err := r.write(ctx, dir, runOpts{}, "reset", "-q", "--merge"); err != nil {
		return fmt.Errorf("%w (and undoing it: %v)", mergeErr, err)
	}
	return &ConflictError{Op: "merge --squash", Paths: conflicted}
}

// UnstageAll empties the staging area of the worktree at dir back to HEAD,
// keeping every change in the files (new files become untracked).
func (r *Repo) UnstageAll(ctx context.Context, dir string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, err := r.write(ctx, dir, runOpts{}, "reset", "-q")
	return err
}

// ResetSoft points the branch of the worktree at dir at commit to, keeping
// the index and the files as they are (`git reset --soft`): commits made
// since to become staged changes again. The engine uses it to fold commits
// an agent made against the rules into the phase's one commit.
func (r *Repo) ResetSoft(ctx context.Context, dir, to string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, err := r.write(ctx, dir, runOpts{}, "reset", "-q", "--soft", to)
	return err
}

// RestoreFile makes path (relative to the worktree root) in the worktree at
// dir what it is in commit from, in the files and the index, and reports
// whether it had been changed. A path that commit from does not hold is
// left alone (false).
func (r *Repo) RestoreFile(ctx context.Context, dir, from, path string) (bool, error) {
	if _, err := r.read(ctx, dir, "cat-file", "-e", from+":"+path); err != nil {
		return false, nil
	}
	// --exit-code: 1 means the file differs from the commit (or is gone).
	if _, err := run(ctx, r.path(dir), runOpts{env: noOptionalLocks}, "diff", "--quiet", from, "--", path); err == nil {
		return false, nil
	} else if exitCode(err) != 1 {
		return false, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := r.write(ctx, dir, runOpts{}, "checkout", "-q", from, "--", path); err != nil {
		return false, err
	}
	return true, nil
}
