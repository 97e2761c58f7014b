package engine

import (
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// A real run under eager: A1's agent waits until B2's agent has run, which
// only an eager schedule allows (under batches B2 waits for A1). The wait
// is on a file, not a clock: A1 gives up after 30 s, and the run then
// shows B2 starting after A1 completed, which fails the test.
func TestRunEagerStartsADependentBeforeTheSlowPhaseEnds(t *testing.T) {
	t.Parallel()
	flag := t.TempDir() + "/b2-ran"
	agent := `case "$AUTOBUILD_PHASE_ID" in
a1) i=0; while [ ! -f '` + flag + `' ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done ;;
b2) touch '` + flag + `' ;;
esac
echo x > "$AUTOBUILD_PHASE_ID.txt"`
	res, repo, sink := runPlanWith(t, twoChains, agent, func(c *Config) { c.Schedule = state.ScheduleEager })
	require.Equal(t, state.RunComplete, res.Status, res.Reason)

	var order []string
	sink.mu.Lock()
	for _, e := range sink.list {
		switch e.Kind {
		case event.PhaseStarted, event.PhaseCompleted:
			order = append(order, string(e.Kind)+" "+string(e.PhaseID))
		case event.RunStarted:
			require.Contains(t, e.Line, ", schedule eager")
		case event.BatchStarted:
			t.Errorf("eager announces no batch: %+v", e)
		}
	}
	sink.mu.Unlock()
	b2, a1 := slices.Index(order, "phase_started b2"), slices.Index(order, "phase_completed a1")
	require.True(t, b2 >= 0 && a1 > b2, "B2 starts before A1 completes: %v", order)

	run, err := state.Open(repo).LoadRun()
	require.NoError(t, err)
	require.Equal(t, state.ScheduleEager, run.Schedule)
	for _, f := range []string{"a1.txt", "a2.txt", "b1.txt", "b2.txt"} {
		require.FileExists(t, repo+"/"+f)
	}
	_, err = os.Stat(state.Open(repo).PhaseWorktreePath("b1"))
	require.ErrorIs(t, err, os.ErrNotExist, "a landed phase's worktree is gone once the run ends")
}

// A resume keeps the schedule run.json records unless one is given.
func TestResumeKeepsTheSchedule(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t, twoChains)
	for _, c := range []struct {
		given state.Schedule
		want  state.Schedule
		agent string
	}{
		{state.ScheduleEager, state.ScheduleEager, "exit 3"}, // halts: something to resume
		{"", state.ScheduleEager, "exit 3"},
		{state.ScheduleBatches, state.ScheduleBatches, "exit 3"},
		{"", state.ScheduleBatches, `echo x > "$AUTOBUILD_PHASE_ID.txt"`},
	} {
		sink := &events{}
		cfg := baseConfig(t, repo, twoChains, c.agent, sink)
		cfg.Schedule = c.given
		_, err := Run(t.Context(), cfg)
		require.NoError(t, err)
		run, err := state.Open(repo).LoadRun()
		require.NoError(t, err)
		require.Equal(t, c.want, run.Schedule, "given %q", c.given)
	}
}
