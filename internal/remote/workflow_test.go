package remote

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

const testRun = "20260101-000000-abcdef"

func testRequest() AttemptRequest {
	return AttemptRequest{
		Request: executor.Request{RunID: testRun, PhaseID: phaseid.ID("2a"), Number: 1, Seq: 1,
			Base: strings.Repeat("a", 40), Timeout: time.Hour},
		Remote:  "/tmp/remote.git",
		BaseRef: BaseRef(testRun, "2a", 1), ResultRef: ResultRef(testRun, "2a", 1),
		HeartbeatTimeout: 10 * time.Second,
	}
}

// harness runs RunWorkflow with activity as the attempt and sends req as
// an update; it returns the update's result (or rejection).
type harness struct {
	testsuite.WorkflowTestSuite
	env      *testsuite.TestWorkflowEnvironment
	calls    atomic.Int32
	result   AttemptResult
	err      error
	rejected error
	timers   []time.Duration
}

func newHarness(t *testing.T, act func(ctx context.Context, req AttemptRequest) (AttemptResult, error)) *harness {
	h := &harness{}
	h.SetLogger(log.NewStructuredLogger(slog.New(slog.DiscardHandler)))
	h.env = h.NewTestWorkflowEnvironment()
	h.env.RegisterWorkflowWithOptions(RunWorkflow, workflowOptions())
	h.env.RegisterActivityWithOptions(func(ctx context.Context, req AttemptRequest) (AttemptResult, error) {
		h.calls.Add(1)
		return act(ctx, req)
	}, activity.RegisterOptions{Name: ActivityName})
	h.env.SetOnTimerScheduledListener(func(_ string, d time.Duration) { h.timers = append(h.timers, d) })
	return h
}

func (h *harness) run(t *testing.T, req AttemptRequest, during func()) {
	t.Helper()
	h.env.RegisterDelayedCallback(func() {
		h.env.UpdateWorkflow(UpdateAttempt, req.Key(), &testsuite.TestUpdateCallback{
			OnReject: func(err error) {
				h.rejected = err
				h.env.SignalWorkflow(SignalFinish, nil)
			},
			OnComplete: func(v any, err error) {
				if r, ok := v.(AttemptResult); ok {
					h.result = r
				}
				h.err = err
				h.env.SignalWorkflow(SignalFinish, nil)
			},
		}, req)
	}, 0)
	if during != nil {
		h.env.RegisterDelayedCallback(during, 2*time.Second)
	}
	h.env.ExecuteWorkflow(WorkflowName, RunInput{RunID: testRun})
	if !h.env.IsWorkflowCompleted() {
		t.Fatal("the workflow did not end after the finish signal")
	}
	if err := h.env.GetWorkflowError(); err != nil {
		t.Fatalf("workflow: %v", err)
	}
}

func TestAttemptResultComesBack(t *testing.T) {
	h := newHarness(t, func(ctx context.Context, req AttemptRequest) (AttemptResult, error) {
		return AttemptResult{Result: executor.Result{Commit: strings.Repeat("b", 40)}, Worker: "w1"}, nil
	})
	h.run(t, testRequest(), nil)
	if h.err != nil || h.result.Commit != strings.Repeat("b", 40) || h.result.Worker != "w1" {
		t.Fatalf("result %+v, err %v", h.result, h.err)
	}
}

// A worker whose machinery fails (a fetch that fails, a disk) is retried,
// and the retries end in the result, not in the phase's failure.
func TestInfrastructureFailuresAreRetriedThenReported(t *testing.T) {
	var h *harness
	h = newHarness(t, func(ctx context.Context, req AttemptRequest) (AttemptResult, error) {
		return AttemptResult{}, temporal.NewApplicationError("cannot fetch /tmp/remote.git", ErrTypeSetup)
	})
	h.run(t, testRequest(), nil)
	if got := h.calls.Load(); got != DefaultInfraAttempts {
		t.Errorf("activity made %d times, want %d", got, DefaultInfraAttempts)
	}
	if !strings.Contains(h.result.Fault.Message, "cannot fetch") || h.err != nil {
		t.Errorf("result %+v, err %v", h.result, h.err)
	}

	h = newHarness(t, func(ctx context.Context, req AttemptRequest) (AttemptResult, error) {
		if h.calls.Load() < 2 {
			return AttemptResult{}, errors.New("worker's disk is full")
		}
		return AttemptResult{Worker: "w2"}, nil
	})
	h.run(t, testRequest(), nil)
	if h.result.Worker != "w2" || h.result.Tries != 2 || h.calls.Load() != 2 {
		t.Errorf("after one infrastructure failure: result %+v, %d calls", h.result, h.calls.Load())
	}
}

// A worker that dies stops heartbeating: the server times the activity out
// and makes it again (on any worker).
func TestHeartbeatTimeoutMakesTheAttemptAgain(t *testing.T) {
	var h *harness
	h = newHarness(t, func(ctx context.Context, req AttemptRequest) (AttemptResult, error) {
		if h.calls.Load() == 1 {
			// The dead worker: no heartbeat for longer than the timeout;
			// what it hands back late is not taken.
			time.Sleep(time.Second)
			return AttemptResult{Worker: "dead"}, nil
		}
		return AttemptResult{Worker: "survivor"}, nil
	})
	req := testRequest()
	req.HeartbeatTimeout = 200 * time.Millisecond
	h.run(t, req, nil)
	if h.result.Worker != "survivor" || h.result.Tries != 2 || h.calls.Load() != 2 {
		t.Fatalf("result %+v after %d calls", h.result, h.calls.Load())
	}
}

// Each try of an attempt pushes to a ref of its own, under the attempt's
// result refs: the dead worker's late push cannot land on the result of
// the try that replaced it.
func TestEachTryHasItsOwnResultRef(t *testing.T) {
	var h *harness
	var refs [3]string
	h = newHarness(t, func(ctx context.Context, req AttemptRequest) (AttemptResult, error) {
		n := h.calls.Load()
		refs[n-1] = req.TryRef
		switch n {
		case 1:
			time.Sleep(time.Second) // dead: no heartbeat
		case 2:
			return AttemptResult{}, temporal.NewApplicationError("cannot fetch", ErrTypeSetup)
		}
		return AttemptResult{Worker: "w3", Result: executor.Result{Commit: strings.Repeat("c", 40)}, Ref: req.TryRef}, nil
	})
	req := testRequest()
	req.HeartbeatTimeout = 200 * time.Millisecond
	h.run(t, req, nil)
	if h.calls.Load() != 3 || h.result.Worker != "w3" {
		t.Fatalf("result %+v after %d calls", h.result, h.calls.Load())
	}
	seen := map[string]bool{}
	for i, ref := range refs {
		if err := CheckTryRef(testRun, req.ResultRef, ref); err != nil {
			t.Errorf("try %d: %v", i+1, err)
		}
		if seen[ref] {
			t.Errorf("try %d pushes to %s, as an earlier try does", i+1, ref)
		}
		seen[ref] = true
	}
	if h.result.Ref != refs[2] {
		t.Errorf("the result names %q, want the last try's %s", h.result.Ref, refs[2])
	}
}

// Ctrl-C on the coordinator: the cancel signal reaches the activity through
// its heartbeats, and the result says interrupted.
func TestCancelSignalInterruptsTheAttempt(t *testing.T) {
	// (The test environment does not pass the cancellation on to the
	// activity's context; the end-to-end tests see a worker stop.)
	var canceled atomic.Bool
	h := newHarness(t, func(ctx context.Context, req AttemptRequest) (AttemptResult, error) {
		for i := 0; i < 100 && ctx.Err() == nil; i++ {
			activity.RecordHeartbeat(ctx, Progress{Worker: "w1", Step: "agent"})
			time.Sleep(20 * time.Millisecond)
		}
		return AttemptResult{Worker: "w1"}, nil
	})
	h.env.SetOnActivityCanceledListener(func(*activity.Info) { canceled.Store(true) })
	req := testRequest()
	h.run(t, req, func() { h.env.SignalWorkflow(SignalCancel, req.Key()) })
	if !h.result.Interrupted || !canceled.Load() || h.calls.Load() != 1 {
		t.Fatalf("result %+v, activity canceled %v, %d calls", h.result, canceled.Load(), h.calls.Load())
	}
}

// A usage limit within the request's WaitLimit is waited out on a durable
// timer and the attempt made again; it never counts as an infrastructure
// retry.
func TestUsageLimitIsWaitedOutOnATimer(t *testing.T) {
	var h *harness
	h = newHarness(t, func(ctx context.Context, req AttemptRequest) (AttemptResult, error) {
		if h.calls.Load() == 1 {
			return AttemptResult{}, UsageLimitError(Limit{ResetsAt: h.env.Now().Add(2 * time.Hour), Message: "5-hour limit reached"})
		}
		return AttemptResult{Worker: "w1"}, nil
	})
	req := testRequest()
	req.WaitLimit = 6 * time.Hour
	h.run(t, req, nil)
	if h.result.Worker != "w1" || h.calls.Load() != 2 {
		t.Fatalf("result %+v after %d calls", h.result, h.calls.Load())
	}
	if len(h.timers) != 1 || h.timers[0] < time.Hour+59*time.Minute || h.timers[0] > 2*time.Hour {
		t.Fatalf("timers %v, want one of about 2h", h.timers)
	}
}

// A limit further away than WaitLimit comes back to the coordinator (to
// switch agents or halt), with its reset, and the activity is not retried.
func TestUsageLimitBeyondTheWaitComesBack(t *testing.T) {
	var h *harness
	h = newHarness(t, func(ctx context.Context, req AttemptRequest) (AttemptResult, error) {
		return AttemptResult{}, UsageLimitError(Limit{ResetsAt: h.env.Now().Add(8 * time.Hour), Message: "weekly limit",
			Result: &AttemptResult{Worker: "w1", LogTail: "limit reached"}})
	})
	req := testRequest()
	req.WaitLimit = 6 * time.Hour
	h.run(t, req, nil)
	if h.calls.Load() != 1 || h.result.Limit == nil || h.result.Limit.ResetsAt.IsZero() || len(h.timers) != 0 {
		t.Fatalf("result %+v after %d calls, timers %v", h.result, h.calls.Load(), h.timers)
	}
	if h.result.Limit.Result == nil || h.result.Limit.Result.LogTail != "limit reached" {
		t.Fatalf("the limit lost the attempt's evidence: %+v", h.result.Limit)
	}
}

// A request that is not the run's, or names a ref outside the run's, is
// refused before any worker sees it.
func TestBadRequestsAreRejected(t *testing.T) {
	h := newHarness(t, func(ctx context.Context, req AttemptRequest) (AttemptResult, error) {
		return AttemptResult{}, nil
	})
	req := testRequest()
	req.ResultRef = "refs/heads/main"
	h.run(t, req, nil)
	if h.rejected == nil || h.calls.Load() != 0 {
		t.Fatalf("rejected %v, %d calls", h.rejected, h.calls.Load())
	}
}

// An attempt's result stays listed as unclaimed until the coordinator
// claims it: a coordinator resumed after a crash finds it there.
func TestUnclaimedAttemptsAreListedUntilClaimed(t *testing.T) {
	h := newHarness(t, func(ctx context.Context, req AttemptRequest) (AttemptResult, error) {
		return AttemptResult{Worker: "w1"}, nil
	})
	req := testRequest()
	var before, after []string
	h.env.RegisterDelayedCallback(func() {
		h.env.UpdateWorkflow(UpdateAttempt, req.Key(), &testsuite.TestUpdateCallback{
			OnReject: func(err error) { t.Errorf("rejected: %v", err) },
			OnComplete: func(any, error) {
				v, err := h.env.QueryWorkflow(QueryUnclaimed)
				if err == nil {
					_ = v.Get(&before)
				}
				h.env.SignalWorkflow(SignalClaim, req.Key())
			},
		}, req)
	}, 0)
	h.env.RegisterDelayedCallback(func() {
		v, err := h.env.QueryWorkflow(QueryUnclaimed)
		if err == nil {
			_ = v.Get(&after)
		}
		h.env.SignalWorkflow(SignalFinish, nil)
	}, time.Minute)
	h.env.ExecuteWorkflow(WorkflowName, RunInput{RunID: testRun})
	if len(before) != 1 || before[0] != req.Key() || len(after) != 0 {
		t.Fatalf("unclaimed before the claim %v, after %v", before, after)
	}
}

// The run's workflow answers the base query with nothing known until the
// coordinator tells it the base check's verdict, then with it.
func TestBaseVerdictIsKnownOnceSignaled(t *testing.T) {
	h := newHarness(t, func(ctx context.Context, req AttemptRequest) (AttemptResult, error) { return AttemptResult{}, nil })
	var before, after BaseVerdict
	query := func(v *BaseVerdict) {
		res, err := h.env.QueryWorkflow(QueryBaseFailing)
		if err != nil {
			t.Errorf("query: %v", err)
			return
		}
		if err := res.Get(v); err != nil {
			t.Error(err)
		}
	}
	h.env.RegisterDelayedCallback(func() { query(&before) }, time.Second)
	h.env.RegisterDelayedCallback(func() {
		h.env.SignalWorkflow(SignalBaseFailing, map[string][]string{"test": {"TestOld"}})
	}, 2*time.Second)
	h.env.RegisterDelayedCallback(func() {
		query(&after)
		h.env.SignalWorkflow(SignalFinish, nil)
	}, 3*time.Second)
	h.env.ExecuteWorkflow(WorkflowName, RunInput{RunID: testRun})
	if before.Known || !after.Known || len(after.Failing["test"]) != 1 || after.Failing["test"][0] != "TestOld" {
		t.Fatalf("before the signal %+v, after %+v", before, after)
	}
}
