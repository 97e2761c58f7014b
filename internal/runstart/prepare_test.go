package runstart

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// A new run writes the phases' initial states in one file and no phase
// file; every phase reads back pending with its plan data. A resume that
// changes nothing writes no phase file either.
func TestNewRunWritesOneFileOfInitialStates(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gitRepo(t, diamondPlan)
	pl, err := plan.Parse(filepath.Join(dir, "plan.md"), []byte(diamondPlan))
	require.NoError(t, err)
	repo, err := gitx.Open(ctx, dir)
	require.NoError(t, err)
	store := state.Open(repo.Root())
	require.NoError(t, store.Init())
	cfg := &Options{Dir: dir, Plan: pl, CommitMode: state.CommitAuto, Now: time.Now}

	run, phases, err := newRun(ctx, cfg, repo, store)
	require.NoError(t, err)
	require.Len(t, phases, len(pl.Phases))
	phaseFiles := func() []string {
		names, err := filepath.Glob(filepath.Join(store.PhasesDir(), "phase-*.json"))
		require.NoError(t, err)
		return names
	}
	require.Empty(t, phaseFiles())
	stored, err := store.LoadPhases()
	require.NoError(t, err)
	require.Equal(t, phases, stored, "what is read back is what the run holds")
	require.Equal(t, state.PhasePending, stored["3"].Status)
	require.Equal(t, []phaseid.ID{"2a", "2b", "2c"}, stored["1"].Dependencies.Blocks)
	require.Equal(t, 3, stored["2b"].Batch)

	_, resumed, err := resumeRun(ctx, cfg, repo, store, run)
	require.NoError(t, err)
	require.Equal(t, phases, resumed)
	require.Empty(t, phaseFiles(), "nothing changed: nothing written")

	// A phase whose file is written from then on is read from it.
	require.NoError(t, store.SavePhase(&state.Phase{PhaseID: "0", DisplayID: "0", Status: state.PhaseComplete}))
	_, err = os.Stat(store.PhasePath("0"))
	require.NoError(t, err)
	p, err := store.LoadPhase("0")
	require.NoError(t, err)
	require.Equal(t, state.PhaseComplete, p.Status)
}

// A --fresh start carries the earlier run's commit mode and schedule over
// in the config it returns; the caller's config stays as it was given.
func TestPrepareReturnsTheConfigItCarriesOver(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gitRepo(t, diamondPlan)
	pl, err := plan.Parse(filepath.Join(dir, "plan.md"), []byte(diamondPlan))
	require.NoError(t, err)
	repo, err := gitx.Open(ctx, dir)
	require.NoError(t, err)
	store := state.Open(repo.Root())
	require.NoError(t, store.Init())
	first := Options{Dir: dir, Plan: pl, CommitMode: state.CommitMessageOnly, Schedule: state.ScheduleEager, Now: time.Now}
	_, _, _, err = Prepare(ctx, first, repo, store)
	require.NoError(t, err)

	given := Options{Dir: dir, Plan: pl, Fresh: true, Now: time.Now}
	got, run, _, err := Prepare(ctx, given, repo, store)
	require.NoError(t, err)
	require.Equal(t, state.CommitMessageOnly, got.CommitMode)
	require.Equal(t, state.ScheduleEager, got.Schedule)
	require.Equal(t, state.CommitMessageOnly, run.CommitMode)
	require.Empty(t, given.CommitMode, "the caller's options are not changed")
	require.Empty(t, given.Schedule)
}
