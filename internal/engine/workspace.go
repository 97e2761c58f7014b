package engine

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// workspaces owns the phases' worktrees in this run: where each is, the
// commit it started from, its branch, and the spare worktrees that landed
// phases left for the next ones to take over (gitx.ReuseWorktree: a
// re-pointed worktree costs git the files two nearby commits differ in, a
// new one the whole tree). Its lock guards its maps only and is never held
// while calling out, so it sits below every other lock.
type workspaces struct {
	repo  *gitx.Repo
	store *state.Store
	refs  state.Refs
	// tip is the integration commit a new worktree starts from.
	tip func() string
	// keep lists the paths (git clean -e patterns) a reused worktree keeps:
	// the ignored files brought in, brought up to date afterwards rather
	// than brought in again (wtenv). Nil keeps none.
	keep func() []string
	// files, when set, brings those files into a new worktree while git
	// writes its tracked files (wtenv.go): the worktree is ready in the
	// longer of the two.
	files alongsideFiles

	mu sync.Mutex
	// bases holds the commit each phase's worktree started from, so a
	// conflict can name the lines the phase changed and a failure's diff
	// holds all of the attempt's work.
	bases map[phaseid.ID]string
	// apart holds the phases whose executor owns their workspaces, and
	// work the earlier attempt's work of each, as a commit on its base
	// (apartspace.go).
	apart map[phaseid.ID]bool
	work  map[phaseid.ID]string
	// spares are parked worktrees; parked counts them all, to name the
	// next. landed are the branches of landed phases, deleted together
	// when the run stops.
	spares []string
	parked int
	landed []string
}

func newWorkspaces(repo *gitx.Repo, store *state.Store, refs state.Refs, tip func() string) *workspaces {
	return &workspaces{repo: repo, store: store, refs: refs, tip: tip, bases: map[phaseid.ID]string{},
		apart: map[phaseid.ID]bool{}, work: map[phaseid.ID]string{}}
}

// path is where the phase's worktree is.
func (w *workspaces) path(id phaseid.ID) string { return w.store.PhaseWorktreePath(id) }

// base is the commit the phase's worktree started from, "" before it has one.
func (w *workspaces) base(id phaseid.ID) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.bases[id]
}

// prepare gives the phase a worktree at the run's current integration
// commit for its first attempt in this run: a spare taken over when there
// is one, else a new one. Any later attempt of the run (the retry, or the
// repeat of a rate-limited attempt) continues in that worktree, on top of
// the earlier attempt's work (continues).
//
// Before every attempt the path is proven to hold the phase's own worktree
// (proveWorktree); a link, a file or nothing there is made again (note
// says what was found, for the attempt's log), anything else fails with a
// *notOwnWorktree naming it, and no agent runs.
func (w *workspaces) prepare(ctx context.Context, id phaseid.ID, displayID phaseid.Display) (dir, base string, continues bool, note string, err error) {
	dir = w.path(id)
	if base := w.base(id); base != "" {
		found, remake, err := w.proveWorktree(ctx, dir)
		switch {
		case err != nil:
			return dir, "", false, "", err
		case !remake:
			return dir, base, true, "", nil
		}
		note = found + ": made again from the run's line; the earlier attempt's work in it is lost"
	} else if err := provePath(w.repo.Root(), dir); err != nil {
		return dir, "", false, "", err
	}
	tip := w.tip()
	if !w.reuse(ctx, dir, w.refs.Phase(id), tip) {
		var alongside func()
		if w.files != nil {
			alongside = func() { w.files.putAlongside(ctx, dir) }
		}
		if err := w.repo.AddWorktreeAlongside(ctx, dir, w.refs.Phase(id), tip, alongside); err != nil {
			w.forgetFiles(dir)
			return dir, "", false, note, fmt.Errorf("creating the worktree of phase %s: %w", displayID, err)
		}
	}
	if found, _, err := w.proveWorktree(ctx, dir); err != nil || found != "" {
		w.forgetFiles(dir)
		return dir, "", false, note, cmp.Or(err, error(&notOwnWorktree{found: found}))
	}
	w.mu.Lock()
	w.bases[id] = tip
	w.mu.Unlock()
	return dir, tip, false, note, nil
}

// alongsideFiles brings a new worktree's ignored files while git writes its
// tracked ones (worktreeEnv).
type alongsideFiles interface {
	putAlongside(ctx context.Context, dir string)
	// forget drops what putAlongside did for dir when the worktree did not
	// come to be.
	forget(dir string)
}

func (w *workspaces) forgetFiles(dir string) {
	if w.files != nil {
		w.files.forget(dir)
	}
}

// moveOnto puts the phase's worktree on tip, its earlier attempt's change
// (committed on its branch) picked on top and left uncommitted, and makes
// tip its base: the retry after an integration_conflict works on top of
// what landed. When the change does not pick cleanly onto tip, the retry
// starts from tip alone (its prompt still holds the failure).
func (w *workspaces) moveOnto(ctx context.Context, id phaseid.ID, tip string, log io.Writer) (string, error) {
	kept, err := w.repo.PutWorkOnto(ctx, w.path(id), tip)
	if err != nil {
		return "", fmt.Errorf("moving phase %s's worktree onto the run's line: %w", id, err)
	}
	if kept {
		fmt.Fprintf(log, "# autobuild: the worktree starts from the run's line %s, the earlier attempt's change on top, uncommitted\n", tip)
	} else {
		fmt.Fprintf(log, "# autobuild: the worktree starts from the run's line %s (the earlier attempt's change does not apply to it)\n", tip)
	}
	w.mu.Lock()
	w.bases[id] = tip
	w.mu.Unlock()
	return tip, nil
}

// reuse moves a spare worktree to dir on branch at start, and reports
// whether it did. A spare that cannot be reused is removed.
func (w *workspaces) reuse(ctx context.Context, dir, branch, start string) bool {
	w.mu.Lock()
	n := len(w.spares)
	if n == 0 {
		w.mu.Unlock()
		return false
	}
	spare := w.spares[n-1]
	w.spares = w.spares[:n-1]
	w.mu.Unlock()
	var keep []string
	if w.keep != nil {
		keep = w.keep()
	}
	if err := w.repo.ReuseWorktree(ctx, spare, dir, branch, start, keep...); err != nil {
		_ = w.repo.RemoveWorktree(context.WithoutCancel(ctx), spare)
		return false
	}
	return true
}

// release parks the worktree of a landed phase for the next phase, or
// removes it when it cannot be parked. Its branch stays until the run
// stops (removeSpares). Landing is done, so a Ctrl-C does not stop it.
func (w *workspaces) release(ctx context.Context, id phaseid.ID) {
	ctx = context.WithoutCancel(ctx)
	w.mu.Lock()
	w.landed = append(w.landed, w.refs.Phase(id))
	if w.apart[id] {
		w.mu.Unlock()
		return // no worktree here: its executor's
	}
	w.parked++
	spare := w.store.SpareWorktreePath(w.parked)
	w.mu.Unlock()
	if err := w.repo.ParkWorktree(ctx, w.path(id), spare); err != nil {
		_ = w.repo.RemoveWorktree(ctx, w.path(id))
		_ = w.repo.RemoveWorktree(ctx, spare)
		return
	}
	w.mu.Lock()
	w.spares = append(w.spares, spare)
	w.mu.Unlock()
}

// removeSpares removes the parked worktrees and the landed phases'
// branches when the run stops: a halted run leaves only the worktrees and
// branches of its unfinished phases behind.
func (w *workspaces) removeSpares(ctx context.Context) {
	ctx = context.WithoutCancel(ctx)
	w.mu.Lock()
	spares, landed := w.spares, w.landed
	w.spares, w.landed = nil, nil
	w.mu.Unlock()
	if len(spares) > 0 {
		_ = w.repo.RemoveWorktrees(ctx, spares...)
	}
	_ = w.repo.DeleteBranches(ctx, landed)
}
