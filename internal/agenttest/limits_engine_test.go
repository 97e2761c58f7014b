package agenttest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/agenttest/mockapi"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// Usage limits as a subscription's API answers them and the real CLIs print
// them today (claude 2.1.330 logged in with an OAuth token, codex 0.169.0):
// the mock refuses every request until the reset on the run's injected
// clock, then answers.

// subscriptionAgent is claude logged in as a subscription (an OAuth
// token), pointed at srv.
func subscriptionAgent(t *testing.T, srv *mockapi.Server) agent.Agent {
	t.Helper()
	Require(t, "claude")
	a, err := agent.Resolve("claude", nil)
	require.NoError(t, err)
	a.Args[0] = BinDir() + "/claude"
	a.Env = append(a.Env, Env(t, srv, Options{Sandbox: true, DefaultRetries: true, Subscription: true})...)
	return a
}

// minuteAhead is the start of the next minute after c's time.
func minuteAhead(c *clock) time.Time { return c.now().Truncate(time.Minute).Add(time.Minute) }

// clockAt is a clock at t.
func clockAt(t time.Time) *clock { return &clock{t: t} }

// claude prints the reset to the minute ("resets 10:10pm (UTC)"); the limit
// lifts 2 s past that minute. autobuild waits for the exact reset of the
// stream's rate_limit_event, and the same attempt completes: the retry is
// not used.
func TestEngineWaitsOutClaudes5HourLimitPastItsMinute(t *testing.T) {
	t.Parallel()
	for _, past := range []time.Duration{2 * time.Second, 30 * time.Second} {
		t.Run(past.String(), func(t *testing.T) {
			t.Parallel()
			minute := minuteAhead(newClock())
			c := clockAt(minute.Add(-20 * time.Second))
			reset := minute.Add(past)
			srv := mockapi.New(t, mockapi.Claude, success()...)
			srv.LimitUntil(mockapi.UsageLimit, reset, c.now)
			res, ps := runEngine(t, c, subscriptionAgent(t, srv))
			require.Equal(t, state.RunComplete, res.Status, res.Reason)
			require.Equal(t, "1:claude:failed 1:claude:complete", agentsOf(ps))
			require.True(t, ps.Attempts[0].Error.UsageLimit)
			require.NotNil(t, ps.Attempts[0].Error.ResetsAt)
			require.True(t, reset.Equal(*ps.Attempts[0].Error.ResetsAt), "resets at %s, want %s", ps.Attempts[0].Error.ResetsAt, reset)
			require.Equal(t, []time.Duration{reset.Sub(minute.Add(-20 * time.Second))}, c.waits, "one wait, until the exact reset")
			t.Logf("USAGE claude 5-hour, reset %s past the printed minute -> waited %v, %d invocations, %d model requests",
				past, c.waits, len(ps.Attempts), len(srv.ModelRequests()))
		})
	}
}

// A weekly limit (and the Opus one) days away halts the run at once, past
// --wait-limit, naming the reset in local time: no back-off, no repeat.
func TestEngineHaltsAtOnceOnClaudesWeeklyLimit(t *testing.T) {
	t.Parallel()
	for _, f := range []mockapi.Failure{mockapi.WeeklyLimit, mockapi.OpusLimit} {
		t.Run(string(f), func(t *testing.T) {
			t.Parallel()
			c := newClock()
			reset := c.now().Add(3*24*time.Hour + 5*time.Hour + 7*time.Minute + 12*time.Second)
			srv := mockapi.New(t, mockapi.Claude)
			srv.LimitUntil(f, reset, c.now)
			res, ps := runEngine(t, c, subscriptionAgent(t, srv))
			require.Equal(t, state.RunHalted, res.Status, res.Reason)
			require.Contains(t, res.Reason, "claude's "+map[mockapi.Failure]string{mockapi.WeeklyLimit: "weekly limit", mockapi.OpusLimit: "Opus limit"}[f]+" resets at "+reset.Local().Format("Mon 2 Jan 15:04 MST"))
			require.Contains(t, res.Reason, "past --wait-limit 6h")
			require.Len(t, ps.Attempts, 1)
			require.True(t, ps.Attempts[0].Error.UsageLimit)
			require.Empty(t, c.waits, "no back-off")
		})
	}
}

// codex prints a reset later today as "try again at 10:11 PM.": autobuild
// waits until the end of that minute and runs the phase once more.
func TestEngineWaitsOutCodexsTryAgainAt(t *testing.T) {
	t.Parallel()
	minute := minuteAhead(newClock())
	c := clockAt(minute.Add(-40 * time.Second))
	reset := minute.Add(30 * time.Second)
	srv := mockapi.New(t, mockapi.Codex, success()...)
	srv.LimitUntil(mockapi.UsageLimit, reset, c.now)
	res, ps := runEngine(t, c, cliAgent(t, "codex", srv))
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	require.Equal(t, "1:codex:failed 1:codex:complete", agentsOf(ps), "one repeat")
	require.True(t, ps.Attempts[0].Error.UsageLimit)
	require.Len(t, c.waits, 1)
	require.False(t, c.now().Before(reset), "waited until the reset")
	require.LessOrEqual(t, c.waits[0], reset.Sub(minute.Add(-40*time.Second))+90*time.Second, "no longer than the printed minute's end")
	t.Logf("USAGE codex try again at, reset 30 s into the minute -> waited %v, %d invocations, %d model requests",
		c.waits, len(ps.Attempts), len(srv.ModelRequests()))
}
