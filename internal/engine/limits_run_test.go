package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/schedule"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// limitedOnce is an agent that hits a limit (printing said on stderr) the
// first time it runs in a worktree and succeeds the next.
func limitedOnce(said string) string {
	return `if [ -f started.txt ]; then echo done > done.txt; rm started.txt
else echo half > started.txt; echo '` + said + `' >&2; exit 1; fi`
}

func countEvents(sink *events, kind event.Kind) int {
	sink.mu.Lock()
	defer sink.mu.Unlock()
	n := 0
	for _, e := range sink.list {
		if e.Kind == kind {
			n++
		}
	}
	return n
}

// A real run whose agent hits a usage limit resetting in 5 s waits it out
// on the injected clock and completes on attempt 1 of 2.
func TestRunWaitsOutAUsageLimit(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	res, repo, sink := runPlanWith(t, onePhase, limitedOnce("You have hit your usage limit. Try again in 5 seconds."), func(c *Config) {
		c.Now, c.Sleep, c.WaitLimit = clock.now, clock.sleep, schedule.DefaultWaitLimit
	})
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	require.Equal(t, []time.Duration{5 * time.Second}, clock.waits())
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Len(t, p.Attempts, 2)
	for _, a := range p.Attempts {
		require.Equal(t, 1, a.Number, "the wait uses no retry")
	}
	rep := p.Attempts[0].Error
	require.True(t, rep.UsageLimit)
	require.NotNil(t, rep.ResetsAt)
	require.Equal(t, 2, countEvents(sink, event.PhaseStarted))
	require.Equal(t, 1, countEvents(sink, event.PhaseWaiting))
}

// Past --wait-limit the run halts at once, naming the reset in local time.
func TestRunHaltsOnAUsageLimitPastTheWaitLimit(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	res, repo, _ := runPlanWith(t, onePhase, limitedOnce("You have hit your weekly limit · resets Jan 15, 8:00am (UTC)"), func(c *Config) {
		c.Now, c.Sleep, c.WaitLimit = clock.now, clock.sleep, schedule.DefaultWaitLimit
	})
	require.Equal(t, state.RunHalted, res.Status)
	require.Contains(t, res.Reason, "script's weekly limit resets at "+time.Unix(1800000000+60, 0).Local().Format("Mon 2 Jan 15:04 MST"))
	require.Contains(t, res.Reason, "past --wait-limit 6h")
	require.Empty(t, clock.waits())
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Len(t, p.Attempts, 1)
	require.Equal(t, failreport.RateLimited, p.Attempts[0].Error.Type)
}

// Ctrl-C while waiting out a limit: no phantom attempt, no second PHASE
// STARTED, the phase is pending for resume.
func TestRunCtrlCDuringALimitWaitStartsNoAttempt(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clock.onSleep = cancel
	repo := gitRepo(t, onePhase)
	res, sink := runIn(t, ctx, repo, onePhase, limitedOnce("429 Too Many Requests"), func(c *Config) {
		c.Now, c.Sleep = clock.now, clock.sleep
	})
	require.Equal(t, state.RunInterrupted, res.Status)
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Len(t, p.Attempts, 1, "no phantom attempt")
	require.Equal(t, state.OutcomeFailed, p.Attempts[0].Outcome)
	require.Equal(t, state.PhasePending, p.Status)
	require.Equal(t, 1, countEvents(sink, event.PhaseStarted), "no PHASE STARTED for an agent that never ran")
}

// After an exhausted context, an agent that cannot continue its session
// gets a compact prompt: the work done so far, not the whole history.
func TestRunAfterAnExhaustedContextGetsACompactPrompt(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "retry-prompt.md")
	res, _, _ := runPlan(t, onePhase, `if [ -f started.txt ]; then cp "$AUTOBUILD_PROMPT_FILE" `+out+`; rm started.txt; echo done > done.txt
else echo half > started.txt; echo 'Error: prompt is too long: 212345 tokens > 200000 maximum' >&2; exit 1; fi`)
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	prompt, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Contains(t, string(prompt), "The previous session on this phase ran out of context")
	require.Contains(t, string(prompt), "- Files changed: started.txt")
	require.NotContains(t, string(prompt), "### Failure report")
}

func runIn(t *testing.T, ctx context.Context, repo, planText, agentShell string, change func(*Config)) (Result, *events) {
	t.Helper()
	sink := &events{}
	cfg := baseConfig(t, repo, planText, agentShell, sink)
	change(&cfg)
	res, err := Run(ctx, cfg)
	if err != nil {
		require.ErrorIs(t, err, context.Canceled)
	}
	return res, sink
}
