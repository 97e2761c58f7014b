package cli

import (
	"context"

	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// alreadyComplete says so when the run in .autobuild/ is complete for this
// very plan, with every phase file saying so, and the command does not
// start over: running it again would skip every phase in silence. It
// returns "" whenever the engine has something to do or to say: a phase
// set back to pending or deleted by hand, an unreadable state file, a
// dirty tree (a message-only run's changes), an edited plan.
func alreadyComplete(pl *plan.Plan, o *runOptions, repo *gitx.Repo) string {
	if o.fresh || repo == nil {
		return ""
	}
	snap, err := state.Open(repo.Root()).Snapshot()
	if err != nil || snap.Run == nil || snap.Run.Status != state.RunComplete || snap.Run.PlanHash != pl.Hash() {
		return ""
	}
	done := map[phaseid.ID]bool{}
	for _, p := range snap.Phases {
		done[p.PhaseID] = p.Status == state.PhaseComplete || p.Status == state.PhaseSkipped
	}
	for _, ph := range pl.Phases {
		if !done[ph.ID] {
			return ""
		}
	}
	// Asked last: the state files are cheaper to read than a status.
	if dirty, err := repo.Dirty(context.Background()); err != nil || len(dirty) > 0 {
		return ""
	}
	return "The plan is already complete: every phase of the run in .autobuild/ is done, so there is nothing to run.\n" +
		"To build it again from the first phase (the commits already made stay): " + freshCommand(o, snap.Run.CommitMode)
}
