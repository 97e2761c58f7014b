package schedule

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/plan/plantest"
	"github.com/autobuild-sh/autobuild/internal/record"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// fakeStep scripts one attempt of the fake runner: how long it takes and
// how it fails ("" = success).
type fakeStep struct {
	dur  time.Duration
	fail failreport.Type
	// resetIn makes a rate_limited failure a usage limit that lifts this
	// long after the attempt ends; retryAfter is a rate limit's.
	resetIn, retryAfter time.Duration
	// cost is what the attempt reports it spent (budget tests).
	cost float64
	// quota is what the agent reports of its quota as it starts.
	quota *agent.Quota
}

// fakeRunner plays scripted attempts and records when each started and
// ended, on the synctest bubble's fake clock.
type fakeRunner struct {
	rec    *record.Recorder
	script map[string][]fakeStep
	quotas *QuotaBook

	mu         sync.Mutex
	calls      map[string]int
	log        []string
	start, end map[string]time.Time // key "2a#1"
	timeouts   map[string]time.Duration
	siblings   map[string][2][]string // key "2a#2": {running alongside, landed}
	running    int
	maxRunning int
	agents     []string // "id:agent" per call, in order
}

func (f *fakeRunner) Attempt(ctx context.Context, req AttemptRequest) AttemptResult {
	id := string(req.Phase.ID) // the fake's script is keyed by plain strings
	f.mu.Lock()
	n := f.calls[id]
	f.calls[id]++
	steps := f.script[id]
	step := fakeStep{dur: time.Second}
	if n < len(steps) {
		step = steps[n]
	}
	key := fmt.Sprintf("%s#%d", id, req.Number)
	f.start[key] = time.Now()
	f.timeouts[key] = req.Timeout
	f.siblings[key] = [2][]string{phaseIDs(req.Siblings), phaseIDs(req.Landed)}
	f.log = append(f.log, "start "+key)
	f.agents = append(f.agents, id+":"+req.Agent.Name)
	f.running++
	f.maxRunning = max(f.maxRunning, f.running)
	f.mu.Unlock()
	f.rec.Phase(req.Phase.ID, func(p *state.Phase) { p.Status = state.PhaseRunning })
	if step.quota != nil && f.quotas != nil {
		f.quotas.Note(req.Agent.Name, *step.quota)
	}

	select {
	case <-time.After(step.dur):
	case <-ctx.Done():
	}

	f.mu.Lock()
	f.running--
	f.end[key] = time.Now()
	f.log = append(f.log, "end "+key)
	f.mu.Unlock()

	if ctx.Err() != nil {
		return AttemptResult{Outcome: state.OutcomeInterrupted}
	}
	var usage *state.Usage
	if step.cost > 0 {
		usage = &state.Usage{CostUSD: step.cost}
	}
	if step.fail == "" {
		f.rec.Phase(req.Phase.ID, func(p *state.Phase) {
			p.Status = state.PhaseComplete
			if usage != nil {
				p.Attempts = append(p.Attempts, state.Attempt{Number: req.Number, Agent: req.Agent.Name, Outcome: state.OutcomeComplete, Usage: usage})
			}
		})
		return AttemptResult{Outcome: state.OutcomeComplete}
	}
	rep := failreport.Report{Type: step.fail, Message: "scripted " + string(step.fail) + " " + key, Retryable: step.fail.Retryable(), Attempt: req.Number}
	if step.resetIn > 0 {
		at := time.Now().Add(step.resetIn)
		rep.UsageLimit, rep.ResetsAt = true, &at
	}
	rep.RetryAfterSeconds = step.retryAfter.Seconds()
	f.rec.Phase(req.Phase.ID, func(p *state.Phase) {
		p.Status = state.PhaseFailed
		p.Error = &rep
		p.Attempts = append(p.Attempts, state.Attempt{Number: req.Number, Agent: req.Agent.Name, Outcome: state.OutcomeFailed, Error: &rep, Usage: usage})
	})
	return AttemptResult{Outcome: state.OutcomeFailed, Report: &rep}
}

const diamondPlan = plantest.Diamond

type schedFixture struct {
	sched  *Scheduler
	runner *fakeRunner
	events *[]event.Event
}

func newSchedFixture(t *testing.T, src string, maxParallel int, script map[string][]fakeStep) schedFixture {
	t.Helper()
	pl, err := plan.Parse("plan.md", []byte(src))
	require.NoError(t, err)
	store := state.Open(t.TempDir())
	require.NoError(t, store.Init())
	phases := map[phaseid.ID]*state.Phase{}
	for _, p := range pl.Phases {
		phases[p.ID] = &state.Phase{PhaseID: p.ID, DisplayID: p.DisplayID, PhaseName: p.Name, Status: state.PhasePending}
	}
	var mu sync.Mutex
	events := &[]event.Event{}
	sink := event.SinkFunc(func(e event.Event) {
		mu.Lock()
		*events = append(*events, e)
		mu.Unlock()
	})
	rec := record.New(store, sink, time.Now, &state.Run{}, phases)
	fr := &fakeRunner{rec: rec, script: script, calls: map[string]int{},
		start: map[string]time.Time{}, end: map[string]time.Time{}, timeouts: map[string]time.Duration{},
		siblings: map[string][2][]string{}}
	s := &Scheduler{Plan: pl, Runner: fr, Rec: rec, MaxParallel: maxParallel, Timeout: time.Minute,
		Agents: []agent.Agent{{Name: "one"}, {Name: "two"}}, Backoff: func(int) time.Duration { return time.Second },
		Sleep: Sleep, Complete: map[phaseid.ID]bool{}, Failed: map[phaseid.ID]*failreport.Report{},
		Limits: LimitPolicy{WaitLimit: DefaultWaitLimit, RateCap: RateLimitWaitCap, Now: time.Now}}
	return schedFixture{sched: s, runner: fr, events: events}
}

func TestSchedulerRunsBatchesInOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, diamondPlan, 3, nil)
		status, _ := f.sched.Execute(context.Background())
		require.Equal(t, state.RunComplete, status)
		r := f.runner
		require.True(t, !r.start["1#1"].Before(r.end["0#1"]), "1 starts after 0 ends")
		for _, id := range []string{"2a", "2b", "2c"} {
			require.True(t, !r.start[id+"#1"].Before(r.end["1#1"]))
			require.True(t, !r.start["3#1"].Before(r.end[id+"#1"]))
		}
		require.Equal(t, 3, r.maxRunning, "2A, 2B and 2C run together")
	})
}

func TestSchedulerHonoursMaxParallel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, diamondPlan, 2, nil)
		status, _ := f.sched.Execute(context.Background())
		require.Equal(t, state.RunComplete, status)
		require.Equal(t, 2, f.runner.maxRunning)
	})
}

// A failed phase retries only after its running siblings have finished, and
// failed siblings retry together.
func TestSchedulerRetryWaitsForSiblings(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, diamondPlan, 3, map[string][]fakeStep{
			"2a": {{dur: time.Second, fail: failreport.TestFailure}, {dur: 2 * time.Second}},
			"2b": {{dur: 10 * time.Second}},
			"2c": {{dur: 2 * time.Second, fail: failreport.LintError}, {dur: 2 * time.Second}},
		})
		status, _ := f.sched.Execute(context.Background())
		require.Equal(t, state.RunComplete, status)
		r := f.runner
		require.True(t, !r.start["2a#2"].Before(r.end["2b#1"]), "retry of 2A waits for 2B")
		require.Equal(t, r.start["2a#2"], r.start["2c#2"], "failed siblings retry in parallel")
		require.Equal(t, 2, r.calls["2a"])
		require.Equal(t, 1, r.calls["2b"])
		require.Equal(t, [2][]string{{"2b", "2c"}, nil}, r.siblings["2a#1"])
		// The retry's prompt still names 2B, which landed meanwhile: its
		// files stay off limits.
		require.Equal(t, [2][]string{{"2c"}, {"2b"}}, r.siblings["2a#2"])
		require.Equal(t, [2][]string{{"2a"}, {"2b"}}, r.siblings["2c#2"])
	})
}

func phaseIDs(phases []*plan.Phase) []string {
	var ids []string
	for _, p := range phases {
		ids = append(ids, string(p.ID))
	}
	return ids
}

func TestSchedulerHaltsAfterFailedRetryAndBlocksDependents(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, diamondPlan, 3, map[string][]fakeStep{
			"2b": {{dur: time.Second, fail: failreport.TestFailure}, {dur: time.Second, fail: failreport.TestFailure}},
		})
		status, reason := f.sched.Execute(context.Background())
		require.Equal(t, state.RunHalted, status)
		require.Contains(t, reason, "Phase 2B failed after retry")
		require.Zero(t, f.runner.calls["3"], "nothing downstream starts")
		p3 := f.sched.Rec.Get("3")
		require.Equal(t, state.PhaseBlocked, p3.Status)
		require.Equal(t, []phaseid.Display{"2B"}, p3.BlockedBy)
		require.Equal(t, state.PhaseComplete, f.sched.Rec.Get("2a").Status, "siblings keep their work")
		require.Equal(t, 2, f.runner.calls["2b"], "exactly one retry")
	})
}

func TestSchedulerNonRetryableHaltsAtOnceButLetsRunningFinish(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, diamondPlan, 3, map[string][]fakeStep{
			"2a": {{dur: time.Second, fail: failreport.DependencyMissing}},
			"2b": {{dur: 5 * time.Second}},
		})
		status, reason := f.sched.Execute(context.Background())
		require.Equal(t, state.RunHalted, status)
		require.Contains(t, reason, "not retryable")
		require.Equal(t, 1, f.runner.calls["2a"], "dependency_missing is never retried")
		require.Equal(t, state.PhaseComplete, f.sched.Rec.Get("2b").Status, "a running sibling finishes")
	})
}

func TestSchedulerDoesNotStartQueuedPhasesAfterHalt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, diamondPlan, 1, map[string][]fakeStep{
			"2a": {{dur: time.Second, fail: failreport.FileConflict}},
		})
		status, _ := f.sched.Execute(context.Background())
		require.Equal(t, state.RunHalted, status)
		require.Zero(t, f.runner.calls["2b"]+f.runner.calls["2c"], "queued phases do not start once halting")
		require.Equal(t, state.PhasePending, f.sched.Rec.Get("2b").Status)
	})
}

func TestSchedulerRateLimitDoesNotUseTheRetry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, diamondPlan, 3, map[string][]fakeStep{
			"1": {{dur: time.Second, fail: failreport.RateLimited}, {dur: time.Second, fail: failreport.RateLimited}, {dur: time.Second}},
		})
		status, _ := f.sched.Execute(context.Background())
		require.Equal(t, state.RunComplete, status)
		require.Equal(t, 3, f.runner.calls["1"])
		_, retried := f.runner.start["1#2"]
		require.False(t, retried, "rate-limited repeats keep attempt 1")
	})
}

// An interrupt stops the run without a failure: the stopped phase and
// everything after it are pending (resume runs them), nothing is blocked.
func TestSchedulerInterrupt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, diamondPlan, 3, map[string][]fakeStep{"1": {{dur: time.Hour}}})
		status, _ := f.sched.Execute(canceledAfter(5 * time.Second))
		require.Equal(t, state.RunInterrupted, status)
		require.Zero(t, f.runner.calls["2a"])
		require.Equal(t, 1, f.runner.calls["1"], "an interrupted attempt is not retried")
		require.Equal(t, state.PhaseComplete, f.sched.Rec.Get("0").Status)
		for _, id := range []phaseid.ID{"1", "2a", "2b", "2c", "3"} {
			require.Equal(t, state.PhasePending, f.sched.Rec.Get(id).Status, id)
			require.Empty(t, f.sched.Rec.Get(id).BlockedBy, id)
		}
		require.Empty(t, kinds(*f.events, event.PhaseBlocked, event.PhaseRetrying))
	})
}

// kinds returns the events of the given kinds, in order.
func kinds(events []event.Event, want ...event.Kind) []event.Event {
	var out []event.Event
	for _, e := range events {
		if slices.Contains(want, e.Kind) {
			out = append(out, e)
		}
	}
	return out
}

// The scheduler's own events: a batch start names the phases it will run,
// a retry is announced before it starts, and a phase downstream of a failed
// one is blocked by it (only the root cause is named).
func TestSchedulerEmitsTypedEvents(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, diamondPlan, 3, map[string][]fakeStep{
			"2a": {{dur: time.Second, fail: failreport.LintError}, {dur: time.Second}},
			"2c": {{dur: time.Second, fail: failreport.TestFailure}, {dur: time.Second, fail: failreport.TestFailure}},
		})
		f.sched.Complete["0"] = true // as the engine marks a phase an earlier run completed
		status, reason := f.sched.Execute(context.Background())
		require.Equal(t, state.RunHalted, status)
		require.Equal(t, "Phase 2C failed after retry (test_failure)", reason)

		got := kinds(*f.events, event.BatchStarted, event.PhaseRetrying, event.PhaseBlocked)
		require.Len(t, got, 5, "%+v", got)
		require.Equal(t, event.Event{Kind: event.BatchStarted, Batch: 2, Phases: []phaseid.Display{"1"}, PhaseIDs: []phaseid.ID{"1"}}, strip(got[0]),
			"batch 1 holds only a completed phase: not started")
		require.Equal(t, event.Event{Kind: event.BatchStarted, Batch: 3, Phases: []phaseid.Display{"2A", "2B", "2C"},
			PhaseIDs: []phaseid.ID{"2a", "2b", "2c"}}, strip(got[1]))
		// Each retry is announced as it starts: the two start side by side,
		// in either order.
		retries := got[2:4]
		slices.SortFunc(retries, func(a, b event.Event) int { return strings.Compare(string(a.DisplayID), string(b.DisplayID)) })
		for i, id := range []phaseid.Display{"2A", "2C"} {
			e := retries[i]
			require.Equal(t, event.PhaseRetrying, e.Kind)
			require.Equal(t, id, e.DisplayID)
			require.Equal(t, 2, e.Attempt)
			require.Equal(t, MaxAttempts, e.MaxAttempts)
			require.Contains(t, e.Line, "with the failure as context")
			require.False(t, f.runner.start[strings.ToLower(string(id))+"#2"].Before(e.Time), "announced before it starts")
		}
		require.Equal(t, event.Event{Kind: event.PhaseBlocked, PhaseID: "3", DisplayID: "3", PhaseName: "Integration",
			BlockedBy: []phaseid.Display{"2C"}}, strip(got[4]))
	})
}

// strip zeroes an event's time, which the recorder stamps.
func strip(e event.Event) event.Event {
	e.Time = time.Time{}
	return e
}

func TestSchedulerRetryUsesTheSecondAgent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, diamondPlan, 3, map[string][]fakeStep{"0": {{dur: time.Second, fail: failreport.TestFailure}}})
		status, _ := f.sched.Execute(context.Background())
		require.Equal(t, state.RunComplete, status)
		require.Equal(t, []string{"0:one", "0:two"}, f.runner.agents[:2], "the retry goes to the other agent")
	})
}

// With a Parallel With column, only phases that name each other run
// together; a phase naming nobody runs after them, once their retries too
// have ended, one group after another in plan order.
func TestSchedulerGroupsOfABatchRunOneAfterAnother(t *testing.T) {
	const plan = `# Groups

| Phase | Name | Depends On | Parallel With |
|---|---|---|---|
| 1 | Core | - | - |
| 2A | Api | 1 | 2B |
| 2B | Ui | 1 | 2A |
| 2C | Docs | 1 | - |

## Phase 1: Core
## Phase 2A: Api
## Phase 2B: Ui
## Phase 2C: Docs
`
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, plan, 4, map[string][]fakeStep{
			"2a": {{dur: time.Second, fail: failreport.TestFailure}, {dur: 3 * time.Second}},
			"2b": {{dur: 2 * time.Second}},
		})
		status, _ := f.sched.Execute(context.Background())
		require.Equal(t, state.RunComplete, status)
		r := f.runner
		require.Equal(t, r.start["2a#1"], r.start["2b#1"], "2A and 2B name each other: together")
		require.False(t, r.start["2a#2"].Before(r.end["2b#1"]), "the retry waits for the running sibling")
		require.False(t, r.start["2c#1"].Before(r.end["2a#2"]), "2C waits for the group, retry included")
		require.Equal(t, 2, r.maxRunning)
	})
}

// Once a sibling has failed for good, the run halts: the retryable failures
// of the batch are not retried, and every one of them is named as blocking
// what depends on it.
func TestSchedulerDoesNotRetryOnceASiblingHalts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, diamondPlan, 3, map[string][]fakeStep{
			"2a": {{dur: time.Second, fail: failreport.TestFailure}},
			"2b": {{dur: 2 * time.Second, fail: failreport.DependencyMissing}},
			"2c": {{dur: 3 * time.Second}},
		})
		status, reason := f.sched.Execute(context.Background())
		require.Equal(t, state.RunHalted, status)
		require.Equal(t, "Phase 2B failed with dependency_missing, which is not retryable", reason)
		require.Equal(t, 1, f.runner.calls["2a"], "no retry once the run halts")
		require.Equal(t, state.PhaseFailed, f.sched.Rec.Get("2a").Status)
		require.Equal(t, state.PhaseComplete, f.sched.Rec.Get("2c").Status, "the running sibling finished")
		require.Equal(t, []phaseid.Display{"2A", "2B"}, f.sched.Rec.Get("3").BlockedBy)
		require.Empty(t, kinds(*f.events, event.PhaseRetrying))
	})
}

// Two failed retries halt with both named; a retry after a timeout gets
// twice the time, other retries the same.
func TestSchedulerHaltNamesEveryFailedRetry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, diamondPlan, 3, map[string][]fakeStep{
			"2a": {{dur: time.Second, fail: failreport.Timeout}, {dur: time.Second, fail: failreport.TestFailure}},
			"2c": {{dur: time.Second, fail: failreport.LintError}, {dur: time.Second, fail: failreport.LintError}},
		})
		status, reason := f.sched.Execute(context.Background())
		require.Equal(t, state.RunHalted, status)
		require.Contains(t, reason, "Phase 2A failed after retry (test_failure)")
		require.Contains(t, reason, "Phase 2C failed after retry (lint_error)")
		require.Equal(t, time.Minute, f.runner.timeouts["2a#1"])
		require.Equal(t, 2*time.Minute, f.runner.timeouts["2a#2"], "a retry after a timeout gets twice the time")
		require.Equal(t, time.Minute, f.runner.timeouts["2c#2"])
		require.Equal(t, []phaseid.Display{"2A", "2C"}, f.sched.Rec.Get("3").BlockedBy)
	})
}

// A retry stopped by an interrupt leaves its phase pending: what depends on
// it is pending too, not blocked by a failure that resume will retry.
func TestSchedulerInterruptedRetryBlocksNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, diamondPlan, 3, map[string][]fakeStep{
			"2a": {{dur: time.Second, fail: failreport.TestFailure}, {dur: time.Hour}},
		})
		status, _ := f.sched.Execute(canceledAfter(time.Minute))
		require.Equal(t, state.RunInterrupted, status)
		require.Equal(t, 2, f.runner.calls["2a"], "the retry had started")
		require.Equal(t, state.PhasePending, f.sched.Rec.Get("2a").Status)
		require.Equal(t, state.PhasePending, f.sched.Rec.Get("3").Status)
		require.Empty(t, f.sched.Rec.Get("3").BlockedBy)
		require.Empty(t, kinds(*f.events, event.PhaseBlocked))
	})
}

// canceledAfter is a context canceled d from now: an interrupt d into a
// run on synctest's clock.
func canceledAfter(d time.Duration) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(d)
		cancel()
	}()
	return ctx
}
