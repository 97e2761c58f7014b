package engine

import (
	"context"
	"fmt"
	"os"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// prepareAt gives a phase resumed while awaiting review its worktree again,
// at base, the commit its work was made on (the work itself is put back by
// the caller). A worktree it has in this run already is kept.
func (w *workspaces) prepareAt(ctx context.Context, id phaseid.ID, displayID phaseid.Display, base string) (string, error) {
	dir := w.path(id)
	if w.base(id) == base {
		if _, err := os.Stat(dir); err == nil {
			return dir, nil
		}
	}
	if !w.reuse(ctx, dir, w.refs.Phase(id), base) {
		if err := w.repo.AddWorktree(ctx, dir, w.refs.Phase(id), base); err != nil {
			return dir, fmt.Errorf("creating the worktree of phase %s: %w", displayID, err)
		}
	}
	w.mu.Lock()
	w.bases[id] = base
	w.mu.Unlock()
	return dir, nil
}
