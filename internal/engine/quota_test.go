package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// withQuotas gives the fixture's scheduler and fake runner one book.
func withQuotas(f schedFixture) schedFixture {
	f.sched.quotas = newQuotaBook(f.sched.maxParallel, time.Now, f.sched.rec)
	f.runner.quotas = f.sched.quotas
	return f
}

// Phase 1's agent reports its five-hour window 97 % used: the three
// phases of the next batch run one at a time instead of together, and
// the run says so in one agent_quota event. Under both schedules.
func TestLowQuotaStartsFewerPhases(t *testing.T) {
	for _, schedule := range []Schedule{ScheduleBatches, ScheduleEager} {
		t.Run(string(schedule), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				low := agent.Quota{Type: "five_hour", Status: "allowed_warning", Utilization: 0.97, ResetsAt: time.Now().Add(5 * time.Hour)}
				f := withQuotas(newSchedFixture(t, diamondPlan, 3, map[string][]fakeStep{"1": {{dur: time.Second, quota: &low}}}))
				f.sched.schedule = schedule
				status, _ := f.sched.execute(context.Background())
				require.Equal(t, state.RunComplete, status)
				require.Equal(t, 1, f.runner.maxRunning, "one phase at a time")
				quota := eventsOf(*f.events, event.AgentQuota)
				require.Len(t, quota, 1)
				require.Equal(t, "one", quota[0].Agent)
				require.Equal(t, 1, quota[0].Quota.Parallel)
				require.InDelta(t, 0.97, *quota[0].Quota.Utilization, 1e-9)
			})
		})
	}
}

// A warning halves the phases at once; a window that has reset counts no
// more.
func TestQuotaHeadroom(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newQuotaBook(4, time.Now, nil)
		require.Equal(t, 4, b.parallel())
		b.note("claude", agent.Quota{Status: "allowed", Utilization: 0.5, ResetsAt: time.Now().Add(time.Hour)})
		require.Equal(t, 4, b.parallel())
		b.note("claude", agent.Quota{Status: "allowed_warning", Utilization: -1, ResetsAt: time.Now().Add(time.Hour)})
		require.Equal(t, 2, b.parallel())
		b.note("codex", agent.Quota{Status: "rejected", Utilization: -1, ResetsAt: time.Now().Add(time.Minute)})
		require.Equal(t, 1, b.parallel())
		time.Sleep(time.Minute)
		require.Equal(t, 2, b.parallel(), "codex's window has reset")
		time.Sleep(time.Hour)
		require.Equal(t, 4, b.parallel())
	})
}

// With the quota fine, nothing changes.
func TestQuotaAllowedKeepsMaxParallel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ok := agent.Quota{Type: "five_hour", Status: "allowed", Utilization: 0.3, ResetsAt: time.Now().Add(5 * time.Hour)}
		f := withQuotas(newSchedFixture(t, diamondPlan, 3, map[string][]fakeStep{"1": {{dur: time.Second, quota: &ok}}}))
		status, _ := f.sched.execute(context.Background())
		require.Equal(t, state.RunComplete, status)
		require.Equal(t, 3, f.runner.maxRunning)
	})
}

// A claude run whose stream reports its quota (a rate_limit_event line
// before the recorded run): the run hears it as an agent_quota event,
// and the attempt log says it; nothing of it is an output line.
func TestClaudeRateLimitEventReachesTheRun(t *testing.T) {
	t.Parallel()
	line := `{"type":"rate_limit_event","rate_limit_info":{"status":"allowed_warning","resetsAt":4102444800,"rateLimitType":"five_hour","utilization":0.91}}`
	a := fakePreset(t, "claude", "echo '"+line+"'\nprintf 'hello\\n' > hello.txt\n"+replay("claude", "success"))
	res, repo, sink := runPreset(t, a, func(c *Config) { c.MaxParallel = 4 })
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	q := sink.of(event.AgentQuota)
	require.Len(t, q, 1)
	require.Equal(t, "claude", q[0].Agent)
	require.Equal(t, "allowed_warning", q[0].Quota.Status)
	require.Equal(t, 2, q[0].Quota.Parallel, "half of --max-parallel 4")
	for _, o := range sink.of(event.PhaseOutput) {
		require.NotContains(t, o.Line, "rate_limit")
	}
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	log, err := os.ReadFile(filepath.Join(repo, p.Attempts[0].LogPath))
	require.NoError(t, err)
	require.Contains(t, string(log), "# autobuild: claude quota: five_hour allowed_warning, 91% used, resets 2100-01-01T00:00:00Z")
}
