package engine

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// workspaces owns the phases' worktrees in this run: where each is, the
// commit it started from, and its branch. Its lock guards bases only and is
// never held while calling out, so it sits below every other lock.
type workspaces struct {
	repo  *gitx.Repo
	store *state.Store
	refs  state.Refs
	// tip is the integration commit a new worktree starts from.
	tip func() string

	mu sync.Mutex
	// bases holds the commit each phase's worktree started from, so a
	// conflict can name the lines the phase changed and a failure's diff
	// holds all of the attempt's work.
	bases map[string]string
}

func newWorkspaces(repo *gitx.Repo, store *state.Store, refs state.Refs, tip func() string) *workspaces {
	return &workspaces{repo: repo, store: store, refs: refs, tip: tip, bases: map[string]string{}}
}

// path is where the phase's worktree is.
func (w *workspaces) path(id string) string { return w.store.PhaseWorktreePath(id) }

// base is the commit the phase's worktree started from, "" before it has one.
func (w *workspaces) base(id string) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.bases[id]
}

// prepare gives the phase a worktree: a new one at the run's current
// integration commit for its first attempt in this run; any later attempt
// of the run (the retry, or the repeat of a rate-limited attempt) continues
// in that worktree, on top of the earlier attempt's work (continues).
func (w *workspaces) prepare(ctx context.Context, id, displayID string) (dir, base string, continues bool, err error) {
	dir = w.path(id)
	if base := w.base(id); base != "" {
		if _, err := os.Stat(dir); err == nil {
			return dir, base, true, nil
		}
	}
	tip := w.tip()
	if err := w.repo.AddWorktree(ctx, dir, w.refs.Phase(id), tip); err != nil {
		return dir, "", false, fmt.Errorf("creating the worktree of phase %s: %w", displayID, err)
	}
	w.mu.Lock()
	w.bases[id] = tip
	w.mu.Unlock()
	return dir, tip, false, nil
}

// release removes the worktree of a landed phase and its branch: its work is
// on the run's line now. Landing is done, so a Ctrl-C does not stop it.
func (w *workspaces) release(ctx context.Context, id string) {
	ctx = context.WithoutCancel(ctx)
	_ = w.repo.RemoveWorktree(ctx, w.path(id))
	_ = w.repo.DeleteBranch(ctx, w.refs.Phase(id))
}
