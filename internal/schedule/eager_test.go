package schedule

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan/plantest"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// Two chains, A1 → A2 and B1 → B2, with A1 slow: under batches B2 waits for
// the batch of A1 and B1; under eager it starts once B1 has landed.
const twoChains = plantest.TwoChains

func newEagerFixture(t *testing.T, src string, maxParallel int, script map[string][]fakeStep) schedFixture {
	t.Helper()
	f := newSchedFixture(t, src, maxParallel, script)
	f.sched.Schedule = state.ScheduleEager
	return f
}

// The slow phase's fake clock makes the order certain: B2 starts at 1 s,
// A1 ends at 10 s, whatever the machine's speed.
func TestEagerStartsAPhaseOnceItsDependenciesLand(t *testing.T) {
	script := map[string][]fakeStep{"a1": {{dur: 10 * time.Second}}, "b1": {{dur: time.Second}}}
	synctest.Test(t, func(t *testing.T) {
		f := newEagerFixture(t, twoChains, 4, script)
		status, _ := f.sched.Execute(context.Background())
		require.Equal(t, state.RunComplete, status)
		r := f.runner
		require.True(t, r.start["b2#1"].Before(r.end["a1#1"]), "B2 starts while A1 of the layer before still runs")
		require.False(t, r.start["b2#1"].Before(r.end["b1#1"]), "but not before its own dependency ends")
		require.False(t, r.start["a2#1"].Before(r.end["a1#1"]))
		require.Empty(t, kinds(*f.events, event.BatchStarted), "eager has no batches to announce")
		require.Equal(t, [2][]string{{"a1"}, nil}, r.siblings["b2#1"], "the prompt names what runs alongside")
		require.Equal(t, [2][]string{{"b1"}, nil}, r.siblings["a1#1"], "phases starting together name each other")
		require.Equal(t, [2][]string{{"a1"}, nil}, r.siblings["b1#1"])
	})
	// The same plan under batches: B2 waits for the barrier.
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, twoChains, 4, script)
		status, _ := f.sched.Execute(context.Background())
		require.Equal(t, state.RunComplete, status)
		require.False(t, f.runner.start["b2#1"].Before(f.runner.end["a1#1"]))
	})
}

// With one slot, the ready phase with the longest chain after it goes
// first; equal chains go in plan order.
func TestEagerPrefersTheLongestChain(t *testing.T) {
	const plan = `# Priority

| Phase | Name | Depends On |
|---|---|---|
| X1 | Alone | - |
| Y1 | Chain start | - |
| Y2 | Chain middle | Y1 |
| Y3 | Chain end | Y2 |
| Z1 | Short chain | - |
| Z2 | Short chain end | Z1 |

## Phase X1: Alone
## Phase Y1: Chain start
## Phase Y2: Chain middle
## Phase Y3: Chain end
## Phase Z1: Short chain
## Phase Z2: Short chain end
`
	synctest.Test(t, func(t *testing.T) {
		f := newEagerFixture(t, plan, 1, nil)
		status, _ := f.sched.Execute(context.Background())
		require.Equal(t, state.RunComplete, status)
		require.Equal(t, []string{
			"start y1#1", "end y1#1", // 3 phases on its chain
			"start y2#1", "end y2#1", // 2, before Z1's 2 by plan order
			"start z1#1", "end z1#1",
			"start x1#1", "end x1#1", // 1 each: plan order
			"start y3#1", "end y3#1",
			"start z2#1", "end z2#1",
		}, f.runner.log)
		require.Equal(t, 1, f.runner.maxRunning)
	})
}

// A phase an earlier run completed counts for nothing on a chain: Y1's
// chain is then shorter than Z1's, though Y1 comes first in the plan.
func TestEagerRanksOnlyPhasesStillToRun(t *testing.T) {
	const plan = `# Priority

| Phase | Name | Depends On |
|---|---|---|
| Y1 | Chain start | - |
| Y2 | Done | Y1 |
| Z1 | Short chain | - |
| Z2 | Short chain end | Z1 |

## Phase Y1: Chain start
## Phase Y2: Done
## Phase Z1: Short chain
## Phase Z2: Short chain end
`
	synctest.Test(t, func(t *testing.T) {
		f := newEagerFixture(t, plan, 1, nil)
		f.sched.Complete["y2"] = true
		status, _ := f.sched.Execute(context.Background())
		require.Equal(t, state.RunComplete, status)
		require.Equal(t, []string{"start z1#1", "end z1#1", "start y1#1", "end y1#1", "start z2#1", "end z2#1"}, f.runner.log)
	})
}

// A halt under eager starts nothing new: not the dependents of the phase
// that finished meanwhile, not the phases waiting for a slot. Running
// phases finish; what did not run is pending or blocked as under batches.
func TestEagerHaltStartsNothingNew(t *testing.T) {
	const plan = `# Halt

| Phase | Name | Depends On |
|---|---|---|
| A1 | Fails | - |
| A2 | After fail | A1 |
| B1 | Running | - |
| B2 | After running | B1 |
| C1 | Waiting for a slot | - |

## Phase A1: Fails
## Phase A2: After fail
## Phase B1: Running
## Phase B2: After running
## Phase C1: Waiting for a slot
`
	synctest.Test(t, func(t *testing.T) {
		f := newEagerFixture(t, plan, 2, map[string][]fakeStep{
			"a1": {{dur: time.Second, fail: failreport.DependencyMissing}},
			"b1": {{dur: 5 * time.Second}},
		})
		status, reason := f.sched.Execute(context.Background())
		require.Equal(t, state.RunHalted, status)
		require.Equal(t, "Phase A1 failed with dependency_missing, which is not retryable", reason)
		r := f.runner
		require.ElementsMatch(t, []string{"start a1#1", "start b1#1"}, r.log[:2], "two slots: C1 waits")
		require.Equal(t, []string{"end a1#1", "end b1#1"}, r.log[2:], "B1 runs to its end; nothing starts after A1 failed")
		rec := f.sched.Rec
		require.Equal(t, state.PhaseComplete, rec.Get("b1").Status)
		require.Equal(t, state.PhasePending, rec.Get("b2").Status, "its dependency landed: pending, not blocked")
		require.Equal(t, state.PhasePending, rec.Get("c1").Status)
		require.Equal(t, state.PhaseBlocked, rec.Get("a2").Status)
		require.Equal(t, []phaseid.Display{"A1"}, rec.Get("a2").BlockedBy)
	})
}

// A failure retries at once, while an unrelated phase still runs; what
// depends on it waits for the retry to land. The retry's prompt names the
// phase running now and the one that landed since its worktree was made.
func TestEagerRetriesAtOnce(t *testing.T) {
	const plan = `# Retry

| Phase | Name | Depends On |
|---|---|---|
| A1 | Flaky | - |
| A2 | After flaky | A1 |
| B1 | Long | - |
| C1 | Short | - |

## Phase A1: Flaky
## Phase A2: After flaky
## Phase B1: Long
## Phase C1: Short
`
	synctest.Test(t, func(t *testing.T) {
		f := newEagerFixture(t, plan, 3, map[string][]fakeStep{
			"a1": {{dur: 3 * time.Second, fail: failreport.TestFailure}, {dur: 2 * time.Second}},
			"b1": {{dur: 20 * time.Second}},
			"c1": {{dur: 2 * time.Second}},
		})
		status, _ := f.sched.Execute(context.Background())
		require.Equal(t, state.RunComplete, status)
		r := f.runner
		require.Equal(t, r.end["a1#1"], r.start["a1#2"], "no batch to wait for")
		require.True(t, r.start["a1#2"].Before(r.end["b1#1"]))
		require.False(t, r.start["a2#1"].Before(r.end["a1#2"]), "the dependent waits for the retry")
		require.True(t, r.end["a2#1"].Before(r.end["b1#1"]))
		require.Equal(t, [2][]string{{"b1"}, {"c1"}}, r.siblings["a1#2"])
		retrying := kinds(*f.events, event.PhaseRetrying)
		require.Len(t, retrying, 1)
		require.Equal(t, phaseid.Display("A1"), retrying[0].DisplayID)
		require.Equal(t, "retrying after test_failure with the failure as context", retrying[0].Line)
	})
}

// A failed retry halts the run as under batches: its dependents are
// blocked, running phases finish, nothing else starts.
func TestEagerFailedRetryHalts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newEagerFixture(t, twoChains, 4, map[string][]fakeStep{
			"a1": {{dur: time.Second, fail: failreport.TestFailure}, {dur: time.Second, fail: failreport.TestFailure}},
			"b1": {{dur: 10 * time.Second}},
		})
		status, reason := f.sched.Execute(context.Background())
		require.Equal(t, state.RunHalted, status)
		require.Equal(t, "Phase A1 failed after retry (test_failure)", reason)
		require.Equal(t, 2, f.runner.calls["a1"])
		require.Zero(t, f.runner.calls["b2"], "B1 landed after the halt: B2 does not start")
		require.Equal(t, state.PhaseComplete, f.sched.Rec.Get("b1").Status)
		require.Equal(t, []phaseid.Display{"A1"}, f.sched.Rec.Get("a2").BlockedBy)
	})
}

// With a Parallel With column, phases run at the same time only when they
// name each other, across layers too: 2C (naming nobody) never overlaps.
func TestEagerKeepsParallelWithGroups(t *testing.T) {
	const plan = `# Groups

| Phase | Name | Depends On | Parallel With |
|---|---|---|---|
| 1 | Core | - | - |
| 2A | Api | 1 | 2B |
| 2B | Ui | 1 | 2A, 3 |
| 2C | Docs | 1 | - |
| 3 | After api | 2A | 2B |

## Phase 1: Core
## Phase 2A: Api
## Phase 2B: Ui
## Phase 2C: Docs
## Phase 3: After api
`
	synctest.Test(t, func(t *testing.T) {
		f := newEagerFixture(t, plan, 4, map[string][]fakeStep{
			"2a": {{dur: time.Second}},
			"2b": {{dur: 5 * time.Second}},
		})
		status, _ := f.sched.Execute(context.Background())
		require.Equal(t, state.RunComplete, status)
		r := f.runner
		require.Equal(t, r.start["2a#1"], r.start["2b#1"])
		require.True(t, r.start["3#1"].Before(r.end["2b#1"]), "3 names 2B: it starts once 2A landed")
		for _, id := range []string{"2a", "2b", "3"} {
			require.False(t, r.start["2c#1"].Before(r.end[id+"#1"]), "2C names nobody: it runs alone")
		}
	})
}

// An interrupt stops the running phases and starts nothing; nothing is
// blocked.
func TestEagerInterrupt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newEagerFixture(t, twoChains, 4, map[string][]fakeStep{"a1": {{dur: time.Hour}}})
		status, _ := f.sched.Execute(canceledAfter(5 * time.Second))
		require.Equal(t, state.RunInterrupted, status)
		require.Equal(t, 1, f.runner.calls["a1"])
		require.Zero(t, f.runner.calls["a2"])
		require.Equal(t, state.PhaseComplete, f.sched.Rec.Get("b2").Status, "the other chain finished first")
		require.Equal(t, state.PhasePending, f.sched.Rec.Get("a1").Status)
		require.Empty(t, kinds(*f.events, event.PhaseBlocked, event.PhaseRetrying))
	})
}
