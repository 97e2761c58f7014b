package runstart

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"

	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// newRunID returns a new run id: the start time and a random suffix, so two
// runs (of sibling worktrees of one repository, say) never share one.
func newRunID(now time.Time) string {
	var b [3]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return now.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// DeletePhaseBranches deletes the run's phase branches: with an id, every
// branch under the run's prefix except its line; without one, the plan's
// phases' branches by name.
func DeletePhaseBranches(ctx context.Context, repo *gitx.Repo, r state.Refs, pl *plan.Plan) error {
	var names []string
	if prefix := r.PhasePrefix(); prefix != "" {
		all, err := repo.Branches(ctx, prefix)
		if err != nil {
			return err
		}
		names = all
	} else {
		for _, p := range pl.Phases {
			names = append(names, r.Phase(p.ID))
		}
	}
	var errs []error
	for _, b := range names {
		errs = append(errs, repo.DeleteBranch(ctx, b))
	}
	return errors.Join(errs...)
}
