package schedule

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/budget"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/state"
)

const chainPlan = `# Chain

| Phase | Name | Depends On |
|---|---|---|
| 1 | One | - |
| 2 | Two | 1 |
| 3 | Three | 2 |

## Phase 1: One
## Phase 2: Two
## Phase 3: Three
`

// The run's budget reached by phase 1's attempt: phase 2 never starts,
// the run halts with budget_exceeded, and one BudgetReached event names
// the spend per phase. Under both schedules.
func TestBudgetReachedStartsNoNewAttempt(t *testing.T) {
	for _, schedule := range []state.Schedule{state.ScheduleBatches, state.ScheduleEager} {
		t.Run(string(schedule), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newSchedFixture(t, chainPlan, 2, map[string][]fakeStep{"1": {{dur: time.Second, cost: 3.5}}})
				f.sched.Schedule = schedule
				f.sched.Budget = BudgetGuard{Limits: budget.Limits{Run: 3}}
				status, reason := f.sched.Execute(context.Background())
				require.Equal(t, state.RunHalted, status)
				require.True(t, strings.HasPrefix(reason, "budget_exceeded: the run spent $3.50, reaching its budget of $3.00"), reason)
				require.Equal(t, 1, f.runner.calls["1"])
				require.Zero(t, f.runner.calls["2"], "no new attempt starts")
				require.Equal(t, failreport.BudgetExceeded, f.sched.HaltReport.Type)
				require.Nil(t, f.sched.HaltPhase, "the run's budget is no phase's failure")
				reached := eventsOf(*f.events, event.BudgetReached)
				require.Len(t, reached, 1)
				require.Contains(t, reached[0].Failure.Details, "1: $3.50")
				require.Equal(t, &event.Budget{MaxCostUSD: 3, SpentUSD: 3.5}, reached[0].Budget)
				require.Equal(t, state.PhasePending, f.sched.Rec.Get("2").Status, "not blocked: it runs on resume")
			})
		})
	}
}

// Under the budget, nothing changes.
func TestBudgetNotReachedRunsEverything(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, chainPlan, 2, map[string][]fakeStep{"1": {{dur: time.Second, cost: 1}}, "2": {{dur: time.Second, cost: 1}}})
		f.sched.Budget = BudgetGuard{Limits: budget.Limits{Run: 5, Phase: 2}}
		status, _ := f.sched.Execute(context.Background())
		require.Equal(t, state.RunComplete, status)
		require.Empty(t, eventsOf(*f.events, event.BudgetReached))
	})
}

// A phase whose own spend reached --max-phase-cost gets no retry: it fails
// with budget_exceeded and the run halts on it.
func TestPhaseBudgetStopsTheRetry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, chainPlan, 2, map[string][]fakeStep{"1": {{dur: time.Second, fail: failreport.TestFailure, cost: 2}}})
		f.sched.Budget = BudgetGuard{Limits: budget.Limits{Phase: 2}}
		status, reason := f.sched.Execute(context.Background())
		require.Equal(t, state.RunHalted, status)
		require.Contains(t, reason, "phase 1 spent $2.00, reaching its budget of $2.00")
		require.Equal(t, 1, f.runner.calls["1"], "no retry")
		ps := f.sched.Rec.Get("1")
		require.Equal(t, state.PhaseFailed, ps.Status)
		require.Equal(t, failreport.BudgetExceeded, ps.Error.Type)
		require.Equal(t, failreport.TestFailure, ps.Attempts[0].Error.Type, "the attempt keeps its own failure")
		require.Equal(t, "1", string(f.sched.HaltPhase.ID))
		require.Equal(t, state.PhaseBlocked, f.sched.Rec.Get("2").Status)
	})
}

// With --max-cost-hard, the attempt that shows the budget reached stops
// the ones still running: they end interrupted (pending, run on resume).
func TestHardBudgetStopsRunningAttempts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, diamondPlan, 3, map[string][]fakeStep{
			"2a": {{dur: time.Second, cost: 5}},
			"2b": {{dur: time.Hour}},
			"2c": {{dur: time.Hour}},
		})
		f.sched.Budget = BudgetGuard{Limits: budget.Limits{Run: 4}, Hard: true}
		start := time.Now()
		status, reason := f.sched.Execute(context.Background())
		require.Equal(t, state.RunHalted, status)
		require.Contains(t, reason, "--max-cost-hard")
		require.Less(t, time.Since(start), time.Hour, "2B and 2C were stopped")
		require.Zero(t, f.runner.calls["3"])
		require.Equal(t, state.PhasePending, f.sched.Rec.Get("3").Status)
	})
}

// A retry the budget refuses is not announced: no PhaseRetrying event
// (the printers' "RETRYING (attempt 2/2)") for an attempt that never
// starts, whether the phase's own budget or the run's refuses it, under
// both schedules.
func TestBudgetRefusedRetryIsNotAnnounced(t *testing.T) {
	for _, schedule := range []state.Schedule{state.ScheduleBatches, state.ScheduleEager} {
		for name, limits := range map[string]budget.Limits{"phase": {Phase: 2}, "run": {Run: 2}} {
			t.Run(string(schedule)+"/"+name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					f := newSchedFixture(t, chainPlan, 2, map[string][]fakeStep{"1": {{dur: time.Second, fail: failreport.TestFailure, cost: 2}}})
					f.sched.Schedule = schedule
					f.sched.Budget = BudgetGuard{Limits: limits}
					status, reason := f.sched.Execute(context.Background())
					require.Equal(t, state.RunHalted, status)
					require.Contains(t, reason, "budget_exceeded")
					require.Equal(t, 1, f.runner.calls["1"], "no retry")
					require.Empty(t, eventsOf(*f.events, event.PhaseRetrying), "a retry that does not start is not announced")
					require.Len(t, eventsOf(*f.events, event.BudgetReached), 1, "the budget says why")
				})
			})
		}
	}
}

// A retry that starts is announced once, before its attempt starts.
func TestRetryIsAnnouncedWhenItStarts(t *testing.T) {
	for _, schedule := range []state.Schedule{state.ScheduleBatches, state.ScheduleEager} {
		t.Run(string(schedule), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newSchedFixture(t, chainPlan, 2, map[string][]fakeStep{"1": {{dur: time.Second, fail: failreport.TestFailure, cost: 1}, {dur: time.Second, cost: 1}}})
				f.sched.Schedule = schedule
				f.sched.Budget = BudgetGuard{Limits: budget.Limits{Run: 10}}
				status, _ := f.sched.Execute(context.Background())
				require.Equal(t, state.RunComplete, status)
				require.Equal(t, 2, f.runner.calls["1"])
				retrying := eventsOf(*f.events, event.PhaseRetrying)
				require.Len(t, retrying, 1)
				require.Equal(t, 2, retrying[0].Attempt)
				require.Equal(t, "retrying after test_failure with the failure as context", retrying[0].Line)
			})
		})
	}
}
