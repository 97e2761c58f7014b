package cli

import (
	"context"
	"os"

	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// alreadyComplete says so when the run in .autobuild/ is complete for this
// very plan and the command does not start over: running it again would
// skip every phase in silence. It returns "" when there is a run to do.
func alreadyComplete(pl *plan.Plan, o *runOptions) string {
	if o.fresh {
		return ""
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	root := wd
	if repo, err := gitx.Open(context.Background(), wd); err == nil {
		root = repo.Root()
	}
	prev := previousRun(root)
	if prev == nil || prev.Status != state.RunComplete || prev.PlanHash != pl.Hash() {
		return ""
	}
	return "The plan is already complete: every phase of the run in .autobuild/ is done, so there is nothing to run.\nTo build it again from the first phase (the commits already made stay): " +
		freshCommand(o, prev.CommitMode)
}
