package remote

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/autobuild-sh/autobuild/internal/executor"
)

// Names registered with Temporal. They are the protocol between a
// coordinator and its workers: change them only with a new name.
const (
	// WorkflowName is the workflow of one run (id WorkflowID(runID)).
	WorkflowName = "autobuild.run"
	// ActivityName is one attempt, made by a worker.
	ActivityName = "autobuild.attempt"
	// UpdateAttempt sends an attempt to the run's workflow and returns its
	// result; the update's id is AttemptRequest.Key, so asking again
	// re-attaches to the attempt instead of making it twice.
	UpdateAttempt = "attempt"
	// SignalCancel cancels the attempt whose key it carries (Ctrl-C, a
	// steer note).
	SignalCancel = "cancel-attempt"
	// SignalFinish ends the workflow once its attempts have ended.
	SignalFinish = "finish"
	// SignalClaim tells the workflow the coordinator has the result of the
	// attempt whose key it carries.
	SignalClaim = "claim"
	// QueryUnclaimed lists the keys of the attempts running or ended whose
	// results the coordinator has not claimed: a resumed coordinator
	// re-attaches to them instead of starting them again.
	QueryUnclaimed = "unclaimed"
	// SignalBaseFailing tells the workflow the run's base check has ended,
	// with the base's known failing tests (--allow-red-base);
	// QueryBaseFailing answers a worker whose attempt was sent before
	// that (AttemptRequest.BasePending) with them (BaseVerdict).
	SignalBaseFailing = "base-failing"
	QueryBaseFailing  = "base-failing"
)

// BaseVerdict is what the workflow knows of the run's base check: whether
// it has ended, and the failing tests the base had per gate kind.
type BaseVerdict struct {
	Known   bool                `json:"known"`
	Failing map[string][]string `json:"failing,omitempty"`
}

// WorkflowID is the id of run runID's workflow.
func WorkflowID(runID string) string { return "autobuild-" + runID }

// RunInput starts a run's workflow.
type RunInput struct {
	RunID string `json:"run_id"`
}

// setupSlack is added to an attempt's own timeout for the worker's fetch,
// checkout and push around the agent and the gates.
const setupSlack = 10 * time.Minute

// RunWorkflow is one run: it makes the attempts the coordinator sends
// (UpdateAttempt) as activities on the workers, until the coordinator
// signals the end (SignalFinish) or cancels it. It keeps no state of the
// run's beyond what its attempts are; the coordinator's .autobuild/ stays
// the record.
func RunWorkflow(ctx workflow.Context, in RunInput) error {
	cancels := map[string]workflow.CancelFunc{}
	unclaimed := map[string]bool{}
	err := workflow.SetUpdateHandlerWithOptions(ctx, UpdateAttempt,
		func(ctx workflow.Context, req AttemptRequest) (AttemptResult, error) {
			actx, cancel := workflow.WithCancel(ctx)
			cancels[req.Key()] = cancel
			unclaimed[req.Key()] = true
			defer delete(cancels, req.Key())
			return runAttempt(actx, req), nil
		},
		workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, req AttemptRequest) error {
			if req.RunID != in.RunID {
				return fmt.Errorf("the attempt is run %s's, not %s's", req.RunID, in.RunID)
			}
			return req.Validate()
		}})
	if err != nil {
		return fmt.Errorf("registering the attempt update: %w", err)
	}
	if err := workflow.SetQueryHandler(ctx, QueryUnclaimed, func() ([]string, error) {
		keys := make([]string, 0, len(unclaimed))
		for k := range unclaimed {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		return keys, nil
	}); err != nil {
		return fmt.Errorf("registering the unclaimed query: %w", err)
	}
	var base BaseVerdict
	if err := workflow.SetQueryHandler(ctx, QueryBaseFailing, func() (BaseVerdict, error) { return base, nil }); err != nil {
		return fmt.Errorf("registering the base query: %w", err)
	}
	baseCh := workflow.GetSignalChannel(ctx, SignalBaseFailing)
	cancelCh := workflow.GetSignalChannel(ctx, SignalCancel)
	claimCh := workflow.GetSignalChannel(ctx, SignalClaim)
	finishCh := workflow.GetSignalChannel(ctx, SignalFinish)
	finished := false
	for !finished && ctx.Err() == nil {
		sel := workflow.NewSelector(ctx)
		sel.AddReceive(cancelCh, func(c workflow.ReceiveChannel, _ bool) {
			var key string
			c.Receive(ctx, &key)
			if cancel, ok := cancels[key]; ok {
				cancel()
			}
		})
		sel.AddReceive(claimCh, func(c workflow.ReceiveChannel, _ bool) {
			var key string
			c.Receive(ctx, &key)
			delete(unclaimed, key)
		})
		sel.AddReceive(baseCh, func(c workflow.ReceiveChannel, _ bool) {
			var failing map[string][]string
			c.Receive(ctx, &failing)
			base = BaseVerdict{Known: true, Failing: failing}
		})
		sel.AddReceive(finishCh, func(c workflow.ReceiveChannel, _ bool) {
			c.Receive(ctx, nil)
			finished = true
		})
		sel.AddReceive(ctx.Done(), func(workflow.ReceiveChannel, bool) {})
		sel.Select(ctx)
	}
	// The attempts still running end first: their results go back to the
	// coordinator (canceled ones as interrupted).
	if ctx.Err() != nil {
		for _, cancel := range cancels {
			cancel()
		}
		ctx, _ = workflow.NewDisconnectedContext(ctx)
	}
	return workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) })
}

// runAttempt makes one attempt: the activity, made again as a new
// activity (so on any worker) when its worker dies (no heartbeat within
// the heartbeat timeout) or its machinery fails, at most InfraAttempts
// times in all; and again after a usage limit's reset when that is within
// the request's WaitLimit (a durable timer: a coordinator that dies
// meanwhile loses nothing). The retries are the workflow's, not the
// server's retry policy's, so each try is its own activity in the history
// and a dead worker's late answer is never taken. The agent's own failures
// are no error here: they come back in the result for the engine to
// classify, and the phase's retry is the engine's.
func runAttempt(ctx workflow.Context, req AttemptRequest) AttemptResult {
	hb := req.HeartbeatTimeout
	if hb <= 0 {
		hb = DefaultHeartbeatTimeout
	}
	maxTries := req.InfraAttempts
	if maxTries <= 0 {
		maxTries = DefaultInfraAttempts
	}
	opts := workflow.ActivityOptions{
		StartToCloseTimeout: req.Timeout + setupSlack,
		HeartbeatTimeout:    hb,
		// The result of a canceled attempt (its evidence, the log's tail)
		// is worth waiting for; the worker stops its processes at once.
		WaitForCancellation: true,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
	}
	waited := time.Duration(0)
	tries, started := 0, 0
	var lastErr error
	for tries < maxTries {
		tries++
		started++
		var res AttemptResult
		opts.ActivityID = ActivityID(req, started)
		actx := workflow.WithActivityOptions(ctx, opts)
		// Each try pushes to a ref of its own: a worker cut off from the
		// server whose push lands late cannot write over the result of
		// the try that replaced it.
		try := req
		try.TryRef = TryRef(req.ResultRef, started, workflow.GetInfo(ctx).WorkflowExecution.RunID)
		err := workflow.ExecuteActivity(actx, ActivityName, try).Get(actx, &res)
		switch {
		case err == nil:
			res.Tries = tries
			return res
		case temporal.IsCanceledError(err) || ctx.Err() != nil:
			res.Interrupted, res.Tries = true, tries
			return res
		}
		if limit := limitOf(err); limit != nil {
			wait := limit.ResetsAt.Sub(workflow.Now(ctx))
			if limit.ResetsAt.IsZero() || wait > req.WaitLimit-waited {
				return AttemptResult{Limit: limit, Tries: tries}
			}
			if wait > 0 {
				if err := workflow.Sleep(ctx, wait); err != nil {
					return AttemptResult{Result: executor.Result{Interrupted: true}, Tries: tries}
				}
				waited += wait
			}
			tries-- // a limit is no failure of the machinery
			continue
		}
		lastErr = err
		if isBadRequest(err) {
			break
		}
		if tries < maxTries {
			if err := workflow.Sleep(ctx, backoff(tries)); err != nil {
				return AttemptResult{Result: executor.Result{Interrupted: true}, Tries: tries}
			}
		}
	}
	return AttemptResult{Result: executor.Result{Fault: &executor.Fault{Message: infraMessage(lastErr, tries)}}, Tries: tries}
}

// ActivityID names the n-th activity of the attempt: the coordinator finds
// its progress among the workflow's pending activities by it.
func ActivityID(req AttemptRequest, n int) string { return fmt.Sprintf("%s#%d", req.Key(), n) }

// backoff is the wait before an attempt is made again after try n of it
// failed for its machinery: 1 s, 2 s, 4 s, at most 30 s.
func backoff(n int) time.Duration { return min(time.Second<<min(n-1, 5), 30*time.Second) }

// isBadRequest says whether the worker refused the request itself.
func isBadRequest(err error) bool {
	var app *temporal.ApplicationError
	return errors.As(err, &app) && (app.Type() == ErrTypeBadRequest || app.NonRetryable())
}

// infraMessage says why the machinery failed, the innermost cause first.
func infraMessage(err error, tries int) string {
	var app *temporal.ApplicationError
	var to *temporal.TimeoutError
	switch {
	case errors.As(err, &app):
		return fmt.Sprintf("%s (after %d %s)", app.Message(), tries, plural(tries, "try", "tries"))
	case errors.As(err, &to):
		return fmt.Sprintf("the worker stopped answering (%s timeout), %d %s in all", to.TimeoutType(), tries, plural(tries, "time", "times"))
	}
	return fmt.Sprintf("%v (after %d %s)", err, tries, plural(tries, "try", "tries"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// workflowOptions registers RunWorkflow under WorkflowName.
func workflowOptions() workflow.RegisterOptions { return workflow.RegisterOptions{Name: WorkflowName} }
