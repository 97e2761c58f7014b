package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/autobuild-sh/autobuild/internal/clip"
	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/proc"
)

// Runner makes the attempt in its prepared workspace, as the local executor
// does on the coordinator's machine (the agent, the tidying, the gates, the
// gate output put back), writing its log to log and its progress to p. It
// returns the evidence; the activity adds the commit, the patch and the
// worker's name.
type Runner func(ctx context.Context, ws Workspace, req AttemptRequest, log io.Writer, p Reporter) AttemptResult

// Reporter hears a running attempt, for its heartbeats.
type Reporter interface {
	Output(line string)
	Action()
	// SetUp says the attempt's [worktree] setup started in the
	// workspace: its teardown runs when the worker is done with it.
	SetUp()
	// BaseFailing is, per gate kind, the failing tests the run's base
	// had (--allow-red-base): the request's KnownFailing, or, for an
	// attempt sent before the base check ended (BasePending), what the
	// run's workflow says once it has ended (waiting for it, as a local
	// attempt's gates do).
	BaseFailing() map[string][]string
}

// attemptReporter is the Reporter of one attempt: its progress book and
// its base's known failing tests.
type attemptReporter struct {
	*progressBook
	baseFailing func() map[string][]string
}

func (r attemptReporter) BaseFailing() map[string][]string { return r.baseFailing() }

// Worker makes attempts: the activity ActivityName.
type Worker struct {
	// Dir holds the worker's mirrors and worktrees (--dir).
	Dir string
	// Identity names the worker in results and heartbeats.
	Identity string
	Run      Runner
	// HeartbeatEvery is how often a running attempt heartbeats (a third
	// of its heartbeat timeout when zero).
	HeartbeatEvery time.Duration
	// Confirm, when set, is asked before the work is pushed (stillOurs).
	Confirm Confirm
	// Base, when set, asks the run's workflow for its base check's
	// verdict (QueryBaseFailing), for an attempt sent before the check
	// ended (AttemptRequest.BasePending). Serve sets it.
	Base func(ctx context.Context, runID string) (BaseVerdict, error)
	// confirmEvery is how often Confirm (and Base) is asked again while
	// the server cannot be reached or the base check has not ended
	// (confirmEvery when zero; tests shorten it).
	confirmEvery time.Duration
}

// logTailLines is how much of a worker's log the result carries.
const logTailLines = 40

// Attempt is the activity: it prepares the workspace (fetching the base),
// runs the attempt, commits and pushes what it made, and returns the
// result. Its errors are the machinery's: a bad request (never retried), a
// workspace it could not prepare or a push that failed (retried by the
// workflow, on any worker), or a usage limit (typed, with its reset). An
// attempt whose agent or gates failed is a result, not an error.
func (w *Worker) Attempt(ctx context.Context, req AttemptRequest) (AttemptResult, error) {
	if err := req.Validate(); err != nil {
		return AttemptResult{}, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeBadRequest, err)
	}
	if req.TryRef == "" {
		err := errors.New("the request names no ref for this try's commit (try_ref): the coordinator and the worker are different versions of autobuild")
		return AttemptResult{}, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeBadRequest, err)
	}
	book := &progressBook{p: Progress{Worker: w.Identity, Step: "fetching"}}
	stop := w.heartbeat(ctx, req, book)
	defer stop()

	ws, err := PrepareWorkspace(ctx, w.Dir, req)
	if err != nil {
		if ctx.Err() != nil {
			return AttemptResult{Result: executor.Result{Interrupted: true}, Worker: w.Identity}, nil
		}
		return AttemptResult{}, temporal.NewApplicationError(fmt.Sprintf("worker %s could not prepare the attempt: %v", w.Identity, err), ErrTypeSetup, err)
	}
	defer func() { _ = ws.Remove(context.WithoutCancel(ctx)) }()

	var log tailBuffer
	res, err := w.attempt(ctx, ws, req, book, &log)
	if req.Teardown != "" && book.setUpRan() {
		// The worker is done with the workspace (committed, pushed, its
		// patch taken): its teardown runs before it is removed.
		book.step("teardown")
		runTeardown(ctx, ws, req, proc.DefaultGrace, &log)
		if err == nil {
			res.LogTail = clip.Tail(log.String(), logTailLines)
		}
	}
	return res, err
}

// attempt runs the attempt in its prepared workspace, commits and pushes
// the work: Attempt's body between the workspace's preparation and its
// teardown.
func (w *Worker) attempt(ctx context.Context, ws Workspace, req AttemptRequest, book *progressBook, log *tailBuffer) (AttemptResult, error) {
	book.step("agent")
	var once sync.Once
	var failing map[string][]string
	rep := attemptReporter{progressBook: book, baseFailing: func() map[string][]string {
		once.Do(func() { failing = w.baseFailing(ctx, req, log) })
		return failing
	}}
	res := w.Run(ctx, ws, req, log, rep)
	res.Worker = w.Identity
	res.LogTail = clip.Tail(log.String(), logTailLines)
	if res.Interrupted || ctx.Err() != nil {
		if stopping(ctx) {
			// This worker is shutting down, not the coordinator canceling:
			// the attempt is made again elsewhere.
			return AttemptResult{}, temporal.NewApplicationError(fmt.Sprintf("worker %s stopped during the attempt", w.Identity), ErrTypeSetup)
		}
		res.Interrupted = true
		return res, nil
	}
	if res.Fault != nil {
		return AttemptResult{}, temporal.NewApplicationError(fmt.Sprintf("worker %s: %s", w.Identity, res.Fault.Message), ErrTypeSetup)
	}
	if res.Setup != nil {
		// The [worktree] setup failed: the coordinator reports it (the
		// user's command, not the worker's machinery); nothing to push.
		return res, nil
	}
	// A usage limit's attempt pushes its work too, which goes back with
	// the limit: the attempt after it continues that work, as a local one
	// continues in the worktree the limited one left.
	s := res.AgentSignal
	limited := s != nil && s.Type == failreport.RateLimited && !s.ResetsAt.IsZero()
	book.step("pushing")
	if err := w.stillOurs(ctx, book); errors.Is(err, errCanceled) {
		res.Interrupted = true
		return res, nil
	} else if err != nil {
		// Its answer would not be taken: the work stays here.
		return AttemptResult{}, temporal.NewApplicationError(fmt.Sprintf("worker %s did not push: %v", w.Identity, err), ErrTypeSetup, err)
	}
	commit, err := ws.Commit(ctx, fmt.Sprintf("autobuild: phase %s, attempt %d (run %s)", req.PhaseID, req.Seq, req.RunID))
	if err != nil {
		return AttemptResult{}, temporal.NewApplicationError(fmt.Sprintf("worker %s: %v", w.Identity, err), ErrTypeSetup, err)
	}
	if commit != "" {
		if err := ws.Push(ctx, req.Remote, req.RunID, req.TryRef, commit); err != nil {
			return AttemptResult{}, temporal.NewApplicationError(fmt.Sprintf("worker %s: %v", w.Identity, err), ErrTypeSetup, err)
		}
		if err := w.pushedInTime(ctx, ws, req); err != nil {
			return AttemptResult{}, temporal.NewApplicationError(fmt.Sprintf("worker %s took its push back: %v", w.Identity, err), ErrTypeSetup, err)
		}
		res.Commit, res.Ref = commit, req.TryRef
		if failed(res) && !limited {
			res.Patch = ws.Patch(ctx)
		}
	}
	if limited {
		return AttemptResult{}, UsageLimitError(Limit{ResetsAt: s.ResetsAt, Message: s.Message, Result: &res})
	}
	return res, nil
}

// baseFailing is the base's known failing tests for the attempt's gates:
// the request's, or, when it was sent before the run's base check ended,
// the run's workflow's, asked every confirmEvery until the check has
// ended or the attempt ends (then none: the gate fails as it is).
func (w *Worker) baseFailing(ctx context.Context, req AttemptRequest, log io.Writer) map[string][]string {
	if !req.BasePending || w.Base == nil {
		return req.KnownFailing
	}
	fmt.Fprintf(log, "# autobuild: a gate failed: asking the coordinator's check of the run's base for its known failing tests (--allow-red-base)\n")
	every := w.confirmEvery
	if every <= 0 {
		every = confirmEvery
	}
	for {
		cctx, cancel := context.WithTimeout(ctx, confirmCall)
		v, err := w.Base(cctx, req.RunID)
		cancel()
		if err == nil && v.Known {
			return v.Failing
		}
		select {
		case <-ctx.Done():
			fmt.Fprintf(log, "# autobuild: the check of the run's base did not end within the attempt: no known failures\n")
			return nil
		case <-time.After(every):
		}
	}
}

// pushedInTime asks the server once more, after the push, whether the
// attempt is still this worker's. A push that hung for longer than the
// heartbeat timeout lands after the attempt was made again elsewhere, or
// after the run ended and deleted its refs: the server then no longer
// knows the attempt, and the worker deletes the ref it pushed (its try's
// own: no other try's result is touched) and reports the error. A server
// it cannot reach now is no such answer: the push stands.
func (w *Worker) pushedInTime(ctx context.Context, ws Workspace, req AttemptRequest) error {
	if w.Confirm == nil {
		return nil
	}
	cctx, cancel := context.WithTimeout(ctx, confirmCall)
	err := w.Confirm(cctx, Progress{Worker: w.Identity, Step: "pushed"})
	cancel()
	if err == nil || !gone(err) {
		return nil
	}
	if derr := ws.DeletePushed(context.WithoutCancel(ctx), req.Remote, req.RunID, req.TryRef); derr != nil {
		return fmt.Errorf("%w; deleting its ref %s on %s: %w", errTakenOver, req.TryRef, req.Remote, derr)
	}
	return fmt.Errorf("%w; its ref %s on %s is deleted", errTakenOver, req.TryRef, req.Remote)
}

// failed says whether the attempt's evidence is a failure (its patch then
// goes back with it).
func failed(r AttemptResult) bool {
	return r.TimedOut || r.IdleTimedOut || r.AgentNotFound || r.AgentExitCode != 0 || r.Gate != nil ||
		r.ResultStatus == "failed"
}

// heartbeat records the attempt's progress every HeartbeatEvery until
// stop is called. A heartbeat is also how the cancellation of the attempt
// reaches it: the server answers one with the request, and ctx ends.
func (w *Worker) heartbeat(ctx context.Context, req AttemptRequest, book *progressBook) (stop func()) {
	every := w.HeartbeatEvery
	if every <= 0 {
		hb := req.HeartbeatTimeout
		if hb <= 0 {
			hb = DefaultHeartbeatTimeout
		}
		every = hb / 3
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			activity.RecordHeartbeat(ctx, book.snapshot())
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	})
	return func() { close(done); wg.Wait() }
}

// tailBuffer keeps the last maxLog bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

const maxLog = 64 << 10

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > maxLog {
		b.buf = append([]byte(nil), b.buf[len(b.buf)-maxLog:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.ToValidUTF8(string(b.buf), "")
}

// stopping says whether the worker running the activity is shutting down.
func stopping(ctx context.Context) bool {
	select {
	case <-activity.GetWorkerStopChannel(ctx):
		return true
	default:
		return false
	}
}
