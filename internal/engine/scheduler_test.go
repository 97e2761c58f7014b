package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// fakeStep scripts one attempt of the fake runner: how long it takes and
// how it fails ("" = success).
type fakeStep struct {
	dur  time.Duration
	fail failure.Type
}

// fakeRunner plays scripted attempts and records when each started and
// ended, on the synctest bubble's fake clock.
type fakeRunner struct {
	rec    *recorder
	script map[string][]fakeStep

	mu         sync.Mutex
	calls      map[string]int
	log        []string
	start, end map[string]time.Time // key "2a#1"
	running    int
	maxRunning int
}

func (f *fakeRunner) attempt(ctx context.Context, req attemptRequest) attemptResult {
	id := req.Phase.ID
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
	f.log = append(f.log, "start "+key)
	f.running++
	f.maxRunning = max(f.maxRunning, f.running)
	f.mu.Unlock()

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
		return attemptResult{Outcome: state.OutcomeInterrupted}
	}
	if step.fail == "" {
		f.rec.phase(id, func(p *state.Phase) { p.Status = state.PhaseComplete })
		return attemptResult{Outcome: state.OutcomeComplete}
	}
	rep := failure.Report{Type: step.fail, Message: "scripted " + string(step.fail) + " " + key, Retryable: step.fail.Retryable(), Attempt: req.Number}
	f.rec.phase(id, func(p *state.Phase) {
		p.Status = state.PhaseFailed
		p.Error = &rep
		p.Attempts = append(p.Attempts, state.Attempt{Number: req.Number, Outcome: state.OutcomeFailed, Error: &rep})
	})
	return attemptResult{Outcome: state.OutcomeFailed, Report: &rep}
}

const diamondPlan = `# Diamond

| Phase | Name | Depends On |
|---|---|---|
| 0 | Bootstrap | - |
| 1 | Core | 0 |
| 2A | Api | 1 |
| 2B | Ui | 1 |
| 2C | Docs | 1 |
| 3 | Integration | 2A, 2B, 2C |

## Phase 0: Bootstrap
## Phase 1: Core
## Phase 2A: Api
## Phase 2B: Ui
## Phase 2C: Docs
## Phase 3: Integration
`

type schedFixture struct {
	sched  *scheduler
	runner *fakeRunner
	events *[]event.Event
}

func newSchedFixture(t *testing.T, src string, maxParallel int, script map[string][]fakeStep) schedFixture {
	t.Helper()
	pl, err := plan.Parse("plan.md", []byte(src))
	require.NoError(t, err)
	store := state.Open(t.TempDir())
	require.NoError(t, store.Init())
	phases := map[string]*state.Phase{}
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
	rec := newRecorder(store, sink, time.Now, &state.Run{}, phases)
	fr := &fakeRunner{rec: rec, script: script, calls: map[string]int{},
		start: map[string]time.Time{}, end: map[string]time.Time{}}
	s := &scheduler{plan: pl, runner: fr, rec: rec, maxParallel: maxParallel, timeout: time.Minute,
		agents: []agent.Agent{{Name: "one"}, {Name: "two"}}, backoff: func(int) time.Duration { return time.Second },
		sleep: sleepCtx, complete: map[string]bool{}, failed: map[string]*failure.Report{}}
	return schedFixture{sched: s, runner: fr, events: events}
}

func TestSchedulerRunsBatchesInOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, diamondPlan, 3, nil)
		status, _ := f.sched.execute(context.Background())
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
		status, _ := f.sched.execute(context.Background())
		require.Equal(t, state.RunComplete, status)
		require.Equal(t, 2, f.runner.maxRunning)
	})
}

// A failed phase retries only after its running siblings have finished, and
// failed siblings retry together.
func TestSchedulerRetryWaitsForSiblings(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, diamondPlan, 3, map[string][]fakeStep{
			"2a": {{dur: time.Second, fail: failure.TestFailure}, {dur: 2 * time.Second}},
			"2b": {{dur: 10 * time.Second}},
			"2c": {{dur: 2 * time.Second, fail: failure.LintError}, {dur: 2 * time.Second}},
		})
		status, _ := f.sched.execute(context.Background())
		require.Equal(t, state.RunComplete, status)
		r := f.runner
		require.True(t, !r.start["2a#2"].Before(r.end["2b#1"]), "retry of 2A waits for 2B")
		require.Equal(t, r.start["2a#2"], r.start["2c#2"], "failed siblings retry in parallel")
		require.Equal(t, 2, r.calls["2a"])
		require.Equal(t, 1, r.calls["2b"])
	})
}

func TestSchedulerHaltsAfterFailedRetryAndBlocksDependents(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, diamondPlan, 3, map[string][]fakeStep{
			"2b": {{dur: time.Second, fail: failure.TestFailure}, {dur: time.Second, fail: failure.TestFailure}},
		})
		status, reason := f.sched.execute(context.Background())
		require.Equal(t, state.RunHalted, status)
		require.Contains(t, reason, "Phase 2B failed after retry")
		require.Zero(t, f.runner.calls["3"], "nothing downstream starts")
		p3 := f.sched.rec.get("3")
		require.Equal(t, state.PhaseBlocked, p3.Status)
		require.Equal(t, []string{"2B"}, p3.BlockedBy)
		require.Equal(t, state.PhaseComplete, f.sched.rec.get("2a").Status, "siblings keep their work")
		require.Equal(t, 2, f.runner.calls["2b"], "exactly one retry")
	})
}

func TestSchedulerNonRetryableHaltsAtOnceButLetsRunningFinish(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, diamondPlan, 3, map[string][]fakeStep{
			"2a": {{dur: time.Second, fail: failure.DependencyMissing}},
			"2b": {{dur: 5 * time.Second}},
		})
		status, reason := f.sched.execute(context.Background())
		require.Equal(t, state.RunHalted, status)
		require.Contains(t, reason, "not retryable")
		require.Equal(t, 1, f.runner.calls["2a"], "dependency_missing is never retried")
		require.Equal(t, state.PhaseComplete, f.sched.rec.get("2b").Status, "a running sibling finishes")
	})
}

func TestSchedulerDoesNotStartQueuedPhasesAfterHalt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, diamondPlan, 1, map[string][]fakeStep{
			"2a": {{dur: time.Second, fail: failure.FileConflict}},
		})
		status, _ := f.sched.execute(context.Background())
		require.Equal(t, state.RunHalted, status)
		require.Zero(t, f.runner.calls["2b"]+f.runner.calls["2c"], "queued phases do not start once halting")
		require.Equal(t, state.PhasePending, f.sched.rec.get("2b").Status)
	})
}

func TestSchedulerRateLimitDoesNotUseTheRetry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, diamondPlan, 3, map[string][]fakeStep{
			"1": {{dur: time.Second, fail: failure.RateLimited}, {dur: time.Second, fail: failure.RateLimited}, {dur: time.Second}},
		})
		status, _ := f.sched.execute(context.Background())
		require.Equal(t, state.RunComplete, status)
		require.Equal(t, 3, f.runner.calls["1"])
		_, retried := f.runner.start["1#2"]
		require.False(t, retried, "rate-limited repeats keep attempt 1")
	})
}

func TestSchedulerInterrupt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, diamondPlan, 3, map[string][]fakeStep{"1": {{dur: time.Hour}}})
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			time.Sleep(5 * time.Second)
			cancel()
		}()
		status, _ := f.sched.execute(ctx)
		require.Equal(t, state.RunInterrupted, status)
		require.Zero(t, f.runner.calls["2a"])
	})
}

func TestSchedulerRetryUsesTheSecondAgent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, diamondPlan, 3, nil)
		require.Equal(t, "one", f.sched.agentFor(1).Name)
		require.Equal(t, "two", f.sched.agentFor(2).Name)
	})
}

func TestFailedUpstreamNamesOnlyRootCauses(t *testing.T) {
	pl, err := plan.Parse("plan.md", []byte(diamondPlan))
	require.NoError(t, err)
	require.Equal(t, []string{"1"}, failedUpstream(pl, "3", map[string]bool{"1": true}))
	require.Equal(t, []string{"2A", "2C"}, failedUpstream(pl, "3", map[string]bool{"2a": true, "2c": true}))
	require.Empty(t, failedUpstream(pl, "2b", map[string]bool{"2a": true}))
}

var _ = filepath.Join
var _ = strings.Join
