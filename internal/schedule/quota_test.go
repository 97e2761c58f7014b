package schedule

import (
	"context"
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
	f.sched.Quotas = NewQuotaBook(f.sched.MaxParallel, time.Now, f.sched.Rec)
	f.runner.quotas = f.sched.Quotas
	return f
}

// Phase 1's agent reports its five-hour window 97 % used: the three
// phases of the next batch run one at a time instead of together, and
// the run says so in one agent_quota event. Under both schedules.
func TestLowQuotaStartsFewerPhases(t *testing.T) {
	for _, schedule := range []state.Schedule{state.ScheduleBatches, state.ScheduleEager} {
		t.Run(string(schedule), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				low := agent.Quota{Type: "five_hour", Status: "allowed_warning", Utilization: 0.97, ResetsAt: time.Now().Add(5 * time.Hour)}
				f := withQuotas(newSchedFixture(t, diamondPlan, 3, map[string][]fakeStep{"1": {{dur: time.Second, quota: &low}}}))
				f.sched.Schedule = schedule
				status, _ := f.sched.Execute(context.Background())
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
		b := NewQuotaBook(4, time.Now, nil)
		require.Equal(t, 4, b.parallel())
		b.Note("claude", agent.Quota{Status: "allowed", Utilization: 0.5, ResetsAt: time.Now().Add(time.Hour)})
		require.Equal(t, 4, b.parallel())
		b.Note("claude", agent.Quota{Status: "allowed_warning", Utilization: -1, ResetsAt: time.Now().Add(time.Hour)})
		require.Equal(t, 2, b.parallel())
		b.Note("codex", agent.Quota{Status: "rejected", Utilization: -1, ResetsAt: time.Now().Add(time.Minute)})
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
		status, _ := f.sched.Execute(context.Background())
		require.Equal(t, state.RunComplete, status)
		require.Equal(t, 3, f.runner.maxRunning)
	})
}
