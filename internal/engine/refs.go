package engine

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

// runRefs names the branches of one run. They carry the run's id
// (autobuild/<run-id>/integration, autobuild/<run-id>/phase-2a), a name no
// person picks, so the run deletes only branches it created: a branch of
// yours named autobuild/… is never touched.
type runRefs struct {
	// id is run.json's run_id; empty for a run started by an autobuild
	// that had no run ids, whose fixed names are kept so it can resume.
	id string
}

// refsOf returns the branch names of run.
func refsOf(run state.Run) runRefs { return runRefs{id: run.RunID} }

// newRunID returns a new run id: the start time and a random suffix, so two
// runs (of sibling worktrees of one repository, say) never share one.
func newRunID(now time.Time) string {
	var b [3]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return now.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// prefix is what every branch of the run starts with; "" for a run without
// an id, whose branches are only ever named one by one.
func (r runRefs) prefix() string {
	if r.id == "" {
		return ""
	}
	return "autobuild/" + r.id + "/"
}

// integration is the run's line.
func (r runRefs) integration() string {
	if r.id == "" {
		return "autobuild/integration"
	}
	return r.prefix() + "integration"
}

// phase is the branch of phase id's worktree.
func (r runRefs) phase(id string) string {
	if r.id == "" {
		return "autobuild/phase-" + state.FileID(id)
	}
	return r.prefix() + "phase-" + state.FileID(id)
}

// deletePhaseBranches deletes the run's phase branches: with an id, every
// branch under the run's prefix except its line; without one, the plan's
// phases' branches by name.
func (r runRefs) deletePhaseBranches(ctx context.Context, repo *gitx.Repo, pl *plan.Plan) error {
	var names []string
	if r.id != "" {
		all, err := repo.Branches(ctx, r.prefix()+"phase-")
		if err != nil {
			return err
		}
		names = all
	} else {
		for _, p := range pl.Phases {
			names = append(names, r.phase(p.ID))
		}
	}
	var errs []error
	for _, b := range names {
		errs = append(errs, repo.DeleteBranch(ctx, b))
	}
	return errors.Join(errs...)
}
