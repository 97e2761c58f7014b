package engine

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// slowVerifyPlan is 1A ∥ 1B; its gate passes on each alone and, on the
// two together, takes long and then fails.
const slowVerifyPlan = "# Slow\n\n| Phase | Depends On |\n|---|---|\n| 1A | - |\n| 1B | - |\n\n" +
	"## Phase 1A: A\n\n## Phase 1B: B\n\n## Quality Gates\n\n" +
	"- build: `if [ -f 1a.txt ] && [ -f 1b.txt ]; then sleep 60; exit 1; fi`\n"

// cancelOn cancels the run when an event of kind arrives.
type cancelOn struct {
	events
	kind   event.Kind
	cancel context.CancelFunc
}

func (c *cancelOn) Emit(ev event.Event) {
	c.events.Emit(ev)
	if ev.Kind == c.kind {
		c.cancel()
	}
}

// Review 2: a Ctrl-C (or SIGTERM) while a combination is verified stops
// the verification's gates: the run was waiting for them to the end (a
// gate run twice, minutes for a real test suite), then charged the phase
// an integration_conflict. The phase is interrupted, runs again on resume,
// and nothing of it landed.
func TestInterruptStopsAVerification(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t, slowVerifyPlan)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sink := &cancelOn{kind: event.PhaseVerifying, cancel: cancel}
	agentShell := `echo "$AUTOBUILD_PHASE_ID" > "$AUTOBUILD_PHASE_ID.txt"; [ "$AUTOBUILD_PHASE_ID" = 1b ] && sleep 0.5; true`
	cfg := baseConfig(t, repo, slowVerifyPlan, agentShell, sink)
	cfg.MaxParallel = 2
	res, err := Run(ctx, cfg)
	require.NoError(t, err)
	require.Equal(t, state.RunInterrupted, res.Status)
	require.NotEmpty(t, sink.of(event.PhaseVerifying), "1B was verified on top of 1A")

	p, err := state.Open(repo).LoadPhase("1b")
	require.NoError(t, err)
	require.Len(t, p.Attempts, 1)
	require.Nil(t, p.Attempts[0].Error, "not charged: %+v", p.Attempts[0].Error)
	require.Equal(t, state.OutcomeInterrupted, p.Attempts[0].Outcome)
	require.Contains(t, runGit(t, repo, "ls-tree", "--name-only", "HEAD"), "1a.txt")
	require.NotContains(t, runGit(t, repo, "ls-tree", "--name-only", "HEAD"), "1b.txt", "nothing of 1B landed")
}
