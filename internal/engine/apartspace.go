package engine

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/autobuild-sh/autobuild/internal/clip"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// The phases of an executor that owns its workspaces (executor.
// WorkspaceOwner: attempts made on other machines) get no worktree here.
// workspaces keeps, for each, the commit it started from (as for a
// worktree) and the earlier attempt's work as a commit on it, which the
// next attempt continues (executor.Request.Continues). The phase's branch
// is set at its base, for landing to move.

// prepareApart gives such a phase its base, the line's tip for its first
// attempt in this run, and for a later attempt the earlier one's work.
func (w *workspaces) prepareApart(ctx context.Context, id phaseid.ID, displayID phaseid.Display) (base, work string, continues bool, err error) {
	w.mu.Lock()
	base, ok := w.bases[id]
	work = w.work[id]
	apart := w.apart[id]
	w.mu.Unlock()
	if ok {
		if !apart {
			// A person reviewed the earlier attempt's work in a worktree
			// made for it (materialize, or a resumed hold) and rejected
			// it: the retry is made elsewhere again, its work a commit
			// that its failure's diff and landing read, not that
			// worktree, which goes (the phase's branch is checked out
			// nowhere, for landing to move). The retry continues what the
			// worktree holds, the person's changes too, as a local retry
			// continues in it.
			if work, err = w.keepReviewed(ctx, id, displayID, base); err != nil {
				return "", "", false, err
			}
		}
		return base, work, true, nil
	}
	base = w.tip()
	if err := w.repo.MoveBranch(ctx, w.refs.Phase(id), base, ""); err != nil {
		return "", "", false, fmt.Errorf("setting phase %s's branch at the run's line: %w", displayID, err)
	}
	w.mu.Lock()
	w.bases[id], w.apart[id] = base, true
	delete(w.work, id)
	w.mu.Unlock()
	return base, "", false, nil
}

// keepReviewed makes the phase apart again after a person's review in a
// worktree here: what the worktree holds becomes the phase's work, a
// commit on base (the earlier work when there is no worktree any more),
// and the worktree is removed.
func (w *workspaces) keepReviewed(ctx context.Context, id phaseid.ID, displayID phaseid.Display, base string) (string, error) {
	dir := w.path(id)
	w.mu.Lock()
	work := w.work[id]
	w.mu.Unlock()
	if _, err := os.Stat(dir); err == nil {
		tree, err := gitx.SnapshotTree(ctx, dir)
		if err != nil {
			return "", fmt.Errorf("reading phase %s's reviewed worktree: %w", displayID, err)
		}
		if work, err = w.repo.CommitOf(ctx, tree, base, fmt.Sprintf("autobuild: phase %s's reviewed work", displayID)); err != nil {
			return "", fmt.Errorf("keeping phase %s's reviewed work: %w", displayID, err)
		}
	}
	if err := w.repo.RemoveWorktree(ctx, dir); err != nil {
		return "", fmt.Errorf("removing phase %s's reviewed worktree: %w", displayID, err)
	}
	w.mu.Lock()
	w.apart[id], w.work[id] = true, work
	w.mu.Unlock()
	return work, nil
}

// keepWork keeps a failed attempt's work (a commit on the phase's base)
// for the next attempt to continue.
func (w *workspaces) keepWork(id phaseid.ID, commit string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.work[id] = commit
}

// isApart says whether the phase's workspace is its executor's.
func (w *workspaces) isApart(id phaseid.ID) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.apart[id]
}

// moveWorkOnto is moveOnto for such a phase: the earlier attempt's work
// picked onto tip in git's objects, tip its base; when it does not pick
// cleanly the retry starts from tip alone.
func (w *workspaces) moveWorkOnto(ctx context.Context, id phaseid.ID, tip string, log io.Writer) (base, work string, err error) {
	w.mu.Lock()
	work = w.work[id]
	w.mu.Unlock()
	moved := ""
	if work != "" {
		picked, conflicted, err := w.repo.Pick(ctx, tip, work, true)
		if err != nil {
			return "", "", fmt.Errorf("moving phase %s's earlier work onto the run's line: %w", id, err)
		}
		if len(conflicted) == 0 && picked != tip {
			moved = picked
		}
	}
	if err := w.repo.MoveBranch(ctx, w.refs.Phase(id), tip, ""); err != nil {
		return "", "", fmt.Errorf("moving phase %s's branch onto the run's line: %w", id, err)
	}
	if moved != "" {
		fmt.Fprintf(log, "# autobuild: the attempt starts from the run's line %s, the earlier attempt's change on top\n", clip.SHA(tip))
	} else {
		fmt.Fprintf(log, "# autobuild: the attempt starts from the run's line %s (the earlier attempt's change does not apply to it)\n", clip.SHA(tip))
	}
	w.mu.Lock()
	w.bases[id], w.work[id] = tip, moved
	w.mu.Unlock()
	return tip, moved, nil
}

// materialize makes such a phase a worktree at its base holding work, for
// what reads the work from a worktree after all (a person's review).
func (w *workspaces) materialize(ctx context.Context, id phaseid.ID, base, work string) (string, error) {
	dir := w.path(id)
	if err := provePath(w.repo.Root(), dir); err != nil {
		return dir, err
	}
	if err := w.repo.AddWorktreeAlongside(ctx, dir, w.refs.Phase(id), base, nil); err != nil {
		return dir, fmt.Errorf("a worktree for phase %s's work: %w", id, err)
	}
	if err := gitx.PutWork(ctx, dir, work); err != nil {
		return dir, err
	}
	w.mu.Lock()
	delete(w.apart, id)
	w.mu.Unlock()
	return dir, nil
}

// diff is the phase's attempt's work as a diff against its base: its
// worktree's, or for a phase apart its work commit's.
func (w *workspaces) diff(ctx context.Context, id phaseid.ID) (string, error) {
	w.mu.Lock()
	apart, base, work := w.apart[id], w.bases[id], w.work[id]
	w.mu.Unlock()
	if !apart {
		return gitx.DiffWorkingTree(ctx, w.path(id), base)
	}
	if work == "" {
		return "", nil
	}
	return gitx.CommitDiff(ctx, w.repo.Root(), base, work)
}
