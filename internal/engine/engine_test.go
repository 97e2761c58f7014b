package engine

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// A Ctrl-C that arrives while the run is starting (its git commands are
// stopped) ends it as interrupted, exit 130, not as a refusal to start.
func TestRunInterruptedWhileStartingExits130(t *testing.T) {
	t.Parallel()
	dir := gitRepo(t, diamondPlan)
	pl, err := plan.Parse(filepath.Join(dir, "plan.md"), []byte(diamondPlan))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Run(ctx, Config{Dir: dir, Plan: pl, CommitMode: state.CommitAuto, Agents: []agent.Agent{{Name: "true", Args: []string{"true"}}}})
	require.Error(t, err)
	require.Equal(t, ExitInterrupted, ExitCode(err), "%v", err)
	require.Equal(t, "interrupted before any phase started, while opening the repository: run the same command again to continue", err.Error())
	require.ErrorIs(t, err, context.Canceled, "what the step returned stays in the chain")
}

// Resume recovers from a commit trailer only a phase that was stopped
// between landing its commit and recording it: its last attempt was
// stopped, and the commit was made during that attempt. A phase a person
// set to pending (or whose file they deleted) runs again, even when that
// re-run was interrupted too: its earlier commit is older than the attempt.
func TestLandedUnrecorded(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2025, 3, 4, 10, 0, 0, 0, time.UTC)
	// Attempt n starts n-1 hours after t0; during(n) is a time within it.
	attempts := func(outcomes ...string) []state.Attempt {
		var out []state.Attempt
		for i, o := range outcomes {
			out = append(out, state.Attempt{Number: i + 1, Outcome: o, Started: t0.Add(time.Duration(i) * time.Hour)})
		}
		return out
	}
	during := func(n int) time.Time { return t0.Add(time.Duration(n-1)*time.Hour + time.Minute) }
	// Git keeps whole seconds: a commit made 0.3 s after an attempt that
	// started at 0.7 s past a second reads as made before it started.
	sameSecond := attempts(state.OutcomeInterrupted)
	sameSecond[0].Started = t0.Add(700 * time.Millisecond)

	for _, c := range []struct {
		name     string
		ps       state.Phase
		authored time.Time
		want     bool
	}{
		{"killed while landing", state.Phase{Status: state.PhasePending, Attempts: attempts(state.OutcomeInterrupted)}, during(1), true},
		{"killed in the second it started", state.Phase{Status: state.PhasePending, Attempts: sameSecond}, t0, true},
		{"still marked running", state.Phase{Status: state.PhaseRunning, Attempts: attempts(state.OutcomeRunning)}, during(1), true},
		{"retry killed while landing", state.Phase{Status: state.PhasePending, Attempts: attempts(state.OutcomeFailed, state.OutcomeInterrupted)}, during(2), true},
		{"set to pending by hand", state.Phase{Status: state.PhasePending, Attempts: attempts(state.OutcomeComplete)}, during(1), false},
		{"set to pending by hand, re-run interrupted", state.Phase{Status: state.PhasePending,
			Attempts: attempts(state.OutcomeComplete, state.OutcomeInterrupted)}, during(1), false},
		{"set to pending by hand, re-run killed while landing", state.Phase{Status: state.PhasePending,
			Attempts: attempts(state.OutcomeComplete, state.OutcomeInterrupted)}, during(2), true},
		{"file deleted by hand", state.Phase{Status: state.PhasePending}, during(1), false},
		{"file deleted by hand, re-run interrupted", state.Phase{Status: state.PhasePending,
			Attempts: attempts(state.OutcomeInterrupted)}, t0.Add(-time.Hour), false},
		{"failed", state.Phase{Status: state.PhasePending, Attempts: attempts(state.OutcomeFailed)}, during(1), false},
		{"already complete", state.Phase{Status: state.PhaseComplete, Attempts: attempts(state.OutcomeInterrupted)}, during(1), false},
	} {
		require.Equal(t, c.want, landedUnrecorded(c.ps, c.authored), c.name)
	}
}
