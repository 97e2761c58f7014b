package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/state"
)

// --schedule=eager through the command line: the run says so where it
// starts and in its box, announces no batches, halts as a batch run does
// (2A fails twice, 3 is blocked), and its resume without --schedule is
// eager again.
func TestEagerScheduleHaltsAndResumesEager(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, fivePhases)
	calls := filepath.Join(t.TempDir(), "calls")
	agent := haltingAgent(t, calls)
	r := autobuild(t, repo, "plan.md", "--no-tui", "--commit=auto", "--schedule=eager", "--agent", agent)
	require.Equal(t, 1, r.code, r.String())
	require.Regexp(t, `RUN STARTED - plan.md: 5 phases, commit=auto, agent \S+, schedule eager\n`, r.stdout)
	require.Contains(t, r.stdout, "Schedule: eager")
	require.NotContains(t, r.stdout, "BATCH ")
	require.Equal(t, 2, countCalls(t, calls, "2a"))
	require.Equal(t, state.PhaseBlocked, loadPhase(t, repo, "3").Status)
	require.Equal(t, state.ScheduleEager, loadRun(t, repo).Schedule)

	commitFix(t, repo)
	r = autobuild(t, repo, "plan.md", "--no-tui", "--agent", agent)
	require.Equal(t, 0, r.code, r.String())
	require.Contains(t, r.stdout, ", schedule eager\n", "the resume keeps the run's schedule")
	require.Equal(t, state.ScheduleEager, loadRun(t, repo).Schedule)
}

// A run without --schedule is a batch run, and prints as one always did.
func TestDefaultScheduleIsBatches(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, fivePhases)
	calls := filepath.Join(t.TempDir(), "calls")
	r := autobuild(t, repo, "plan.md", "--no-tui", "--commit=auto", "--agent", workingAgent(t, calls, ""))
	require.Equal(t, 0, r.code, r.String())
	require.Contains(t, r.stdout, "BATCH 3 STARTED - phases 2A, 2B")
	require.NotContains(t, r.stdout, "chedule")
	require.Equal(t, state.ScheduleBatches, loadRun(t, repo).Schedule)
}
