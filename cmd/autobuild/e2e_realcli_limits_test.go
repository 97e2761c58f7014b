package main

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agenttest"
	"github.com/autobuild-sh/autobuild/internal/agenttest/mockapi"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// claude logged in as a subscription (an OAuth token) against a mock that
// answers as the subscription API does: 429 with the
// anthropic-ratelimit-unified-* headers until the reset, on the real clock.
func runSubscriptionLimit(t *testing.T, f mockapi.Failure, reset time.Time) (realRun, *state.Phase) {
	t.Helper()
	requireRealCLI(t, mockapi.Claude)
	srv := mockapi.New(t, mockapi.Claude, mockapi.WriteFile("hello.txt", "hello\n"), mockapi.Text(agenttest.SuccessText))
	srv.LimitUntil(f, reset, time.Now)
	cmd, repo := realCommand(t, mockapi.Claude, srv, agenttest.Options{Sandbox: true, Subscription: true}, realPlan)
	start := time.Now()
	rr := realRun{repo: repo, srv: srv, res: runCmd(t, cmd)}
	rr.took = time.Since(start)
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err, rr.describe())
	return rr, p
}

func limited(srv *mockapi.Server) int {
	n := 0
	for _, r := range srv.ModelRequests() {
		if r.Limited {
			n++
		}
	}
	return n
}

// claude prints "You've hit your 5-hour limit · resets 11:40pm (UTC)", the
// minute of a reset seconds away: autobuild waits for the exact reset of
// the stream's rate_limit_event (not until tomorrow), and the same attempt
// completes, the retry unused.
func TestRealClaudeWaitsOutA5HourLimitSecondsAway(t *testing.T) {
	t.Parallel()
	start := time.Now()
	reset := start.Add(15 * time.Second).Truncate(time.Second) // after claude has started, even on a loaded machine
	rr, p := runSubscriptionLimit(t, mockapi.UsageLimit, reset)
	require.Equal(t, 0, rr.res.code, rr.describe())
	require.Positive(t, limited(rr.srv), "the limit refused the first run\n%s", rr.describe())
	require.Contains(t, rr.res.stdout, "PHASE 1 WAITING (attempt 1/2) - usage limit · resumes "+reset.Local().Format("15:04"), rr.describe())
	require.Equal(t, state.PhaseComplete, p.Status)
	require.Equal(t, 1, p.Attempt, "the retry is unused")
	require.NotNil(t, p.Attempts[0].Error)
	require.True(t, p.Attempts[0].Error.UsageLimit)
	require.True(t, reset.Equal(*p.Attempts[0].Error.ResetsAt), "resets at %s, want %s", p.Attempts[0].Error.ResetsAt, reset)
	for _, l := range strings.Split(rr.res.stdout, "\n") {
		if strings.Contains(l, "WAITING") {
			t.Logf("5-hour limit: %s", l)
		}
	}
	t.Logf("5-hour limit %s away at the start: %d limited and %d answered model requests, %.1f s", reset.Sub(start), limited(rr.srv), len(rr.srv.ModelRequests())-limited(rr.srv), rr.took.Seconds())
}

// A weekly limit ("You've hit your weekly limit · resets Nov 30, 4:26am
// (UTC)") days away halts the run at once, naming the reset in local time:
// no back-off, no repeat.
func TestRealClaudeHaltsAtOnceOnAWeeklyLimit(t *testing.T) {
	t.Parallel()
	reset := time.Now().Add(3*24*time.Hour + 5*time.Hour).Truncate(time.Second)
	rr, p := runSubscriptionLimit(t, mockapi.WeeklyLimit, reset)
	require.NotEqual(t, 0, rr.res.code, rr.describe())
	require.Contains(t, rr.res.stdout, "claude's weekly limit resets at "+reset.Local().Format("Mon 2 Jan 15:04 MST"), rr.describe())
	require.Contains(t, rr.res.stdout, "past --wait-limit 6h", rr.describe())
	require.NotContains(t, rr.res.stdout, "WAITING", rr.describe())
	require.Equal(t, 1, limited(rr.srv), "one run of claude")
	require.Len(t, p.Attempts, 1)
	require.True(t, p.Attempts[0].Error.UsageLimit)
	require.False(t, strings.Contains(rr.res.stdout, "rate limited: trying again"), "not backed off as a rate limit")
	for _, l := range strings.Split(rr.res.stdout, "\n") {
		if strings.Contains(l, "RUN HALTED") {
			t.Logf("weekly limit: %s (%.1f s)", l, rr.took.Seconds())
		}
	}
}
