package remote

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/worker"

	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// Coordinator is the coordinator's side of a remote run: it starts (or
// finds again) the run's workflow, sends attempts to it and fetches their
// commits. Every method is safe for concurrent use.
type Coordinator struct {
	cl     client.Client
	conn   Conn
	shared Shared
	wk     worker.Worker
	// inFlight holds a place per attempt being made (MaxInFlight).
	inFlight chan struct{}
	// mu guards leftover, the unclaimed attempts by phase file id, read
	// once (Leftover), and pushed.
	mu       sync.Mutex
	leftover map[string][]string
	// pushed maps a base commit to the ref it was pushed to (mu).
	pushed map[string]string
	// base is the run's base check's verdict once it has ended (mu);
	// baseOnce starts the wait for it (AwaitBase).
	base     *BaseVerdict
	baseOnce sync.Once
}

// interruptWait bounds how long an interrupted attempt's result is waited
// for after its cancellation was sent.
const interruptWait = 30 * time.Second

// progressEvery is how often a running attempt's progress is read.
const progressEvery = time.Second

// NewCoordinator connects to the server, checks the namespace and that the
// remote takes the run's pushes (within PreflightLimit each), and starts
// the run's workflow or finds it running (a resumed run).
func NewCoordinator(ctx context.Context, c Conn, shared Shared, identity string) (*Coordinator, error) {
	c = c.WithDefaults()
	if err := CheckRunID(shared.RunID); err != nil {
		return nil, err
	}
	cl, err := Dial(ctx, c, identity)
	if err != nil {
		return nil, err
	}
	if err := shared.CheckPush(ctx, PreflightLimit); err != nil {
		cl.Close()
		return nil, fmt.Errorf("%w: give a remote every worker can fetch from and this machine can push to (--remote, [executor] remote); autobuild pushes only refs under refs/autobuild/<run-id>/", err)
	}
	k := &Coordinator{cl: cl, conn: c, shared: shared, inFlight: make(chan struct{}, MaxInFlight)}
	// The coordinator runs the workflow too, so a run goes on while no
	// worker is up yet; the attempts wait for one.
	k.wk = newWorker(cl, c.TaskQueue, worker.Options{Identity: identity, LocalActivityWorkerOnly: true})
	if err := k.wk.Start(); err != nil {
		cl.Close()
		return nil, fmt.Errorf("starting the run's workflow worker on %s: %w", c.Address, err)
	}
	if err := k.startWorkflow(ctx); err != nil {
		k.Close()
		return nil, err
	}
	return k, nil
}

// startWorkflow starts the run's workflow, or finds it running.
func (k *Coordinator) startWorkflow(ctx context.Context) error {
	_, err := k.cl.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: WorkflowID(k.shared.RunID), TaskQueue: k.conn.TaskQueue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
	}, WorkflowName, RunInput{RunID: k.shared.RunID})
	if err != nil {
		return fmt.Errorf("starting the run's workflow %s on %s: %w", WorkflowID(k.shared.RunID), k.conn.Address, err)
	}
	return nil
}

// Pollers says how many workers poll the run's task queue for attempts
// now: none means the attempts will wait for one.
func (k *Coordinator) Pollers(ctx context.Context) (int, error) {
	resp, err := k.cl.DescribeTaskQueue(ctx, k.conn.TaskQueue, enumspb.TASK_QUEUE_TYPE_ACTIVITY)
	if err != nil {
		return 0, fmt.Errorf("describing task queue %q on %s: %w", k.conn.TaskQueue, k.conn.Address, err)
	}
	return len(resp.GetPollers()), nil
}

// Attempt makes the attempt on a worker and returns its result, with its
// commit fetched into the user's repository. Asking again for an attempt
// (same run, phase and seq) re-attaches to it: a resumed coordinator gets
// the result of an attempt that went on without it, and nothing runs
// twice. When ctx ends (Ctrl-C), the attempt is canceled and its result,
// marked interrupted, waited for a little. progress, when set, hears the
// attempt's heartbeats.
func (k *Coordinator) Attempt(ctx context.Context, req AttemptRequest, progress func(Progress)) (AttemptResult, error) {
	if err := req.Validate(); err != nil {
		return AttemptResult{}, err
	}
	// Phases started from the same tip share its push: the ref that holds
	// it already is the attempt's base ref.
	k.mu.Lock()
	ref, pushed := k.pushed[req.Base]
	k.mu.Unlock()
	if pushed {
		req.BaseRef = ref
	} else {
		if err := k.shared.PushBase(ctx, req.Base, req.BaseRef); err != nil {
			return AttemptResult{}, err
		}
		k.mu.Lock()
		if k.pushed == nil {
			k.pushed = map[string]string{}
		}
		k.pushed[req.Base] = req.BaseRef
		k.mu.Unlock()
	}
	return k.await(ctx, req.Key(), req, progress)
}

// Reattach waits for the attempt key the run's workflow made or is making
// (Unclaimed) and returns its result, as Attempt does; req is the attempt
// as this coordinator would make it now (its refs name the result).
func (k *Coordinator) Reattach(ctx context.Context, key string, req AttemptRequest, progress func(Progress)) (AttemptResult, error) {
	phase, seq, ok := strings.Cut(key, "/")
	n, err := strconv.Atoi(seq)
	if !ok || err != nil || phase != string(state.FileIDOf(req.PhaseID)) {
		return AttemptResult{}, fmt.Errorf("attempt %q is not one of phase %s's", key, req.DisplayID)
	}
	req.Seq = n
	req.BaseRef, req.ResultRef = BaseRef(req.RunID, req.PhaseID, n), ResultRef(req.RunID, req.PhaseID, n)
	return k.await(ctx, key, req, progress)
}

// await sends (or finds again) the update key and waits for its result.
func (k *Coordinator) await(ctx context.Context, key string, req AttemptRequest, progress func(Progress)) (AttemptResult, error) {
	started := time.Now()
	release, err := k.slot(ctx)
	if err != nil {
		return AttemptResult{Result: executor.Result{Interrupted: true}}, nil
	}
	defer release()
	if progress != nil {
		stop := k.watch(ctx, req, progress)
		defer stop()
	}
	var res AttemptResult
	var h client.WorkflowUpdateHandle
	restarts := 0
	// A server that restarts or a network that drops the call is waited
	// for: the update's id finds the same attempt again.
	for wait := time.Second; ; wait = min(2*wait, 15*time.Second) {
		h, err = k.cl.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
			WorkflowID: WorkflowID(req.RunID), UpdateID: key, UpdateName: UpdateAttempt,
			Args: []any{req}, WaitForStage: client.WorkflowUpdateStageAccepted,
		})
		if err == nil {
			err = h.Get(ctx, &res)
		}
		if err != nil && ctx.Err() == nil && lost(err) && restarts < maxRestarts {
			// The server lost the run's workflow (one that keeps nothing
			// restarted): it is started again and the attempt made again
			// in it, which is not the phase's retry.
			restarts++
			if err = k.startWorkflow(ctx); err == nil {
				// The new workflow knows nothing of the base check either.
				_ = k.signalBase(ctx)
				continue
			}
		}
		if err == nil || ctx.Err() != nil || !transient(err) || time.Since(started) > reachWait {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(wait):
		}
	}
	if ctx.Err() != nil {
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), interruptWait)
		defer cancel()
		_ = k.cl.SignalWorkflow(wctx, WorkflowID(req.RunID), "", SignalCancel, key)
		if h == nil || h.Get(wctx, &res) != nil {
			return AttemptResult{Result: executor.Result{Interrupted: true}}, nil
		}
		res.Interrupted = true
		return res, nil
	}
	if err != nil {
		return AttemptResult{}, fmt.Errorf("attempt %s of workflow %s on %s: %w", key, WorkflowID(req.RunID), k.conn.Address, err)
	}
	if err := k.shared.fetchWork(ctx, key, req, res); err != nil {
		return res, err
	}
	// The result is the coordinator's now: a later resume does not
	// re-attach to it.
	if err := k.cl.SignalWorkflow(ctx, WorkflowID(req.RunID), "", SignalClaim, key); err != nil {
		return res, fmt.Errorf("claiming attempt %s: %w", key, err)
	}
	return res, nil
}

// reachWait is how long an attempt's coordinator waits for a server it
// cannot reach before the attempt fails as the machinery's.
const reachWait = 30 * time.Minute

// transient says whether a call failed for want of the server (it
// restarts, the network drops), not for what was asked.
func transient(err error) bool {
	var unavailable *serviceerror.Unavailable
	var timeout *client.WorkflowUpdateServiceTimeoutOrCanceledError
	var deadline *serviceerror.DeadlineExceeded
	return errors.As(err, &unavailable) || errors.As(err, &timeout) || errors.As(err, &deadline)
}

// lost says whether a call failed because the server does not know the
// run's workflow (anymore).
func lost(err error) bool {
	var notFound *serviceerror.NotFound
	return errors.As(err, &notFound)
}

// maxRestarts bounds how often one attempt starts the run's workflow again
// after the server lost it.
const maxRestarts = 3

// MaxInFlight is how many attempts of one run a coordinator has the
// workflow make at once: a Temporal server admits 10 updates in flight per
// workflow by default (history.maxInFlightUpdates), and each running
// attempt is one.
const MaxInFlight = 10

// slot waits for one of MaxInFlight places.
func (k *Coordinator) slot(ctx context.Context) (func(), error) {
	select {
	case k.inFlight <- struct{}{}:
		return func() { <-k.inFlight }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// watch reads the attempt's progress from its pending activity every
// progressEvery until stop is called.
func (k *Coordinator) watch(ctx context.Context, req AttemptRequest, progress func(Progress)) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		var last Progress
		for {
			if p, ok := k.progressOf(ctx, req); ok && p != last {
				last = p
				progress(p)
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return func() { cancel(); <-done }
}

// progressOf reads the last heartbeat of the attempt's running activity.
func (k *Coordinator) progressOf(ctx context.Context, req AttemptRequest) (Progress, bool) {
	resp, err := k.cl.DescribeWorkflowExecution(ctx, WorkflowID(req.RunID), "")
	if err != nil {
		return Progress{}, false
	}
	prefix := req.Key() + "#"
	for _, pa := range resp.GetPendingActivities() {
		if !strings.HasPrefix(pa.GetActivityId(), prefix) {
			continue
		}
		var p Progress
		if d := pa.GetHeartbeatDetails(); d != nil {
			_ = converter.GetDefaultDataConverter().FromPayloads(d, &p)
		}
		if p.Worker == "" {
			p.Worker = pa.GetLastWorkerIdentity()
		}
		return p, p.Worker != ""
	}
	return Progress{}, false
}

// Unclaimed lists the keys of phase's attempts (every phase's for "") the
// run's workflow made or is making whose results no coordinator took:
// after a crash, the resumed coordinator re-attaches to them (Reattach).
func (k *Coordinator) Unclaimed(ctx context.Context, phase phaseid.ID) ([]string, error) {
	v, err := k.cl.QueryWorkflow(ctx, WorkflowID(k.shared.RunID), "", QueryUnclaimed)
	if err != nil {
		return nil, fmt.Errorf("asking workflow %s for its attempts: %w", WorkflowID(k.shared.RunID), err)
	}
	var keys []string
	if err := v.Get(&keys); err != nil {
		return nil, err
	}
	if phase == "" {
		return keys, nil
	}
	prefix := string(state.FileIDOf(phase)) + "/"
	var mine []string
	for _, key := range keys {
		if strings.HasPrefix(key, prefix) {
			mine = append(mine, key)
		}
	}
	return mine, nil
}

// Leftover returns, once per phase, the attempts of phase that a
// coordinator before this one sent and never claimed (Unclaimed, asked of
// the workflow once, when this coordinator sends its first attempt): a
// phase's later attempts are this coordinator's own, and cost no query.
func (k *Coordinator) Leftover(ctx context.Context, phase phaseid.ID) ([]string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.leftover == nil {
		keys, err := k.Unclaimed(ctx, "")
		if err != nil {
			return nil, err
		}
		k.leftover = map[string][]string{}
		for _, key := range keys {
			phase, _, _ := strings.Cut(key, "/")
			k.leftover[phase] = append(k.leftover[phase], key)
		}
	}
	id := string(state.FileIDOf(phase))
	keys := k.leftover[id]
	delete(k.leftover, id)
	return keys, nil
}

// KnownBase returns the base's known failing tests once the run's base
// check has ended (ok), as AwaitBase heard them.
func (k *Coordinator) KnownBase() (failing map[string][]string, ok bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.base == nil {
		return nil, false
	}
	return k.base.Failing, true
}

// AwaitBase waits, once per run and beside the attempts, for the run's
// base check (baseFailing, which blocks until it has ended), then tells
// the run's workflow its verdict (SignalBaseFailing): the workers whose
// attempts were sent before it ended (BasePending) ask the workflow for
// it when a gate fails.
func (k *Coordinator) AwaitBase(baseFailing func() map[string][]string) {
	k.baseOnce.Do(func() {
		go func() {
			failing := baseFailing()
			k.mu.Lock()
			k.base = &BaseVerdict{Known: true, Failing: failing}
			k.mu.Unlock()
			ctx, cancel := context.WithTimeout(context.Background(), reachWait)
			defer cancel()
			for wait := time.Second; k.signalBase(ctx) != nil && ctx.Err() == nil; wait = min(2*wait, 15*time.Second) {
				select {
				case <-ctx.Done():
				case <-time.After(wait):
				}
			}
		}()
	})
}

// signalBase tells the run's workflow the base check's verdict, once it
// is known (nothing to tell before).
func (k *Coordinator) signalBase(ctx context.Context) error {
	k.mu.Lock()
	base := k.base
	k.mu.Unlock()
	if base == nil {
		return nil
	}
	if err := k.cl.SignalWorkflow(ctx, WorkflowID(k.shared.RunID), "", SignalBaseFailing, base.Failing); err != nil {
		if isNotFound(err) {
			return nil // the run ended
		}
		return fmt.Errorf("telling workflow %s the base check's verdict: %w", WorkflowID(k.shared.RunID), err)
	}
	return nil
}

// Finish ends the run's workflow (once its attempts have ended) and
// deletes the run's refs on the remote and the fetched ones here.
func (k *Coordinator) Finish(ctx context.Context) error {
	var errs []error
	if err := k.cl.SignalWorkflow(ctx, WorkflowID(k.shared.RunID), "", SignalFinish, nil); err != nil && !isNotFound(err) {
		errs = append(errs, fmt.Errorf("ending workflow %s: %w", WorkflowID(k.shared.RunID), err))
	}
	if err := k.shared.DeleteRefs(ctx); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Close stops the coordinator's workflow worker and its connection; the
// workflow and its attempts go on.
func (k *Coordinator) Close() {
	if k.wk != nil {
		k.wk.Stop()
	}
	k.cl.Close()
}

func isNotFound(err error) bool {
	var nf *serviceerror.NotFound
	return errors.As(err, &nf)
}
