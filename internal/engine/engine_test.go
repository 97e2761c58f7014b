package engine

import (
	"context"
	"path/filepath"
	"testing"

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
	_, err = Run(ctx, Config{Dir: dir, Plan: pl, CommitMode: CommitAuto, Agents: []agent.Agent{{Name: "true", Args: []string{"true"}}}})
	require.Error(t, err)
	require.Equal(t, ExitInterrupted, ExitCode(err), "%v", err)
	require.Equal(t, "interrupted before any phase started, while opening the repository: run the same command again to continue", err.Error())
	require.ErrorIs(t, err, context.Canceled, "what the step returned stays in the chain")
}

// Resume recovers from a commit trailer only a phase that was stopped
// between landing its commit and recording it; a phase a person set to
// pending (or whose file they deleted) runs again.
func TestLandedUnrecorded(t *testing.T) {
	t.Parallel()
	attempts := func(outcomes ...string) []state.Attempt {
		var out []state.Attempt
		for i, o := range outcomes {
			out = append(out, state.Attempt{Number: i + 1, Outcome: o})
		}
		return out
	}
	for _, c := range []struct {
		name string
		ps   state.Phase
		want bool
	}{
		{"killed while landing", state.Phase{Status: state.PhasePending, Attempts: attempts(state.OutcomeInterrupted)}, true},
		{"still marked running", state.Phase{Status: state.PhaseRunning, Attempts: attempts(state.OutcomeRunning)}, true},
		{"retry killed while landing", state.Phase{Status: state.PhasePending, Attempts: attempts(state.OutcomeFailed, state.OutcomeInterrupted)}, true},
		{"set to pending by hand", state.Phase{Status: state.PhasePending, Attempts: attempts(state.OutcomeComplete)}, false},
		{"file deleted by hand", state.Phase{Status: state.PhasePending}, false},
		{"failed", state.Phase{Status: state.PhasePending, Attempts: attempts(state.OutcomeFailed)}, false},
		{"already complete", state.Phase{Status: state.PhaseComplete, Attempts: attempts(state.OutcomeInterrupted)}, false},
	} {
		require.Equal(t, c.want, landedUnrecorded(c.ps), c.name)
	}
}
