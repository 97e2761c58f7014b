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

// CherryPick applies commit sha on top of HEAD in the worktree at dir and
// returns the new commit. On conflicts it aborts the cherry-pick, leaving
// the worktree as it was, and returns the conflicted paths with a nil error.
// A commit whose changes are already there (the pick comes out empty) is a
// success that returns HEAD unchanged.
func (r *Repo) CherryPick(ctx context.Context, dir, sha string) (string, []string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, pickErr := r.write(ctx, dir, runOpts{}, "cherry-pick", sha)
	if pickErr == nil {
		head, err := r.Head(ctx, dir)
		return head, nil, err
	}

	conflicted, err := r.unmerged(ctx, dir)
	if err != nil {
		return "", nil, fmt.Errorf("%w (and listing its conflicts: %v)", pickErr, err)
	}
	inProgress := r.refExists(ctx, dir, "CHERRY_PICK_HEAD")
	// A pick that stopped in progress with no conflicts and nothing staged
	// came out empty: its changes are already on HEAD.
	empty := inProgress && len(conflicted) == 0 && r.nothingStaged(ctx, dir)
	if inProgress {
		if _, err := r.write(ctx, dir, runOpts{}, "cherry-pick", "--abort"); err != nil {
			return "", nil, fmt.Errorf("%w (and aborting it: %v)", pickErr, err)
		}
	}
	if len(conflicted) > 0 {
		return "", conflicted, nil
	}
	if empty {
		head, err := r.Head(ctx, dir)
		return head, nil, err
	}
	return "", nil, pickErr
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

// nothingStaged reports whether the index of the worktree at dir matches
// its HEAD.
func (r *Repo) nothingStaged(ctx context.Context, dir string) bool {
	_, err := r.read(ctx, dir, "diff", "--cached", "--quiet")
	return err == nil
}

// refExists reports whether ref (a pseudo-ref such as MERGE_HEAD included)
// resolves in the worktree at dir.
func (r *Repo) refExists(ctx context.Context, dir, ref string) bool {
	_, err := r.read(ctx, dir, "rev-parse", "-q", "--verify", ref)
	return err == nil
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

// ResetHard points the worktree at dir (and its branch) at commit to and
// makes index and files match it. Untracked files stay.
func (r *Repo) ResetHard(ctx context.Context, dir, to string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, err := r.write(ctx, dir, runOpts{}, "reset", "-q", "--hard", to)
	return err
}

// AbortInProgress aborts a cherry-pick or merge that a killed process left
// half done in the worktree at dir. Nothing in progress is not an error.
func (r *Repo) AbortInProgress(ctx context.Context, dir string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	// Asked even without CHERRY_PICK_HEAD: a kill can leave the sequencer
	// state behind without it.
	if _, err := r.write(ctx, dir, runOpts{}, "cherry-pick", "--abort"); err != nil &&
		!strings.Contains(err.Error(), "no cherry-pick or revert in progress") {
		return err
	}
	if r.refExists(ctx, dir, "MERGE_HEAD") {
		if _, err := r.write(ctx, dir, runOpts{}, "merge", "--abort"); err != nil {
			return err
		}
	}
	return nil
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
