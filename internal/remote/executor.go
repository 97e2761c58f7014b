package remote

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/sanitize"
)

// Executor is the engine's executor for --executor temporal: it sends each
// attempt to the run's workflow, and hands the work the worker made back
// as a commit (executor.Result.Commit), which landing takes.
type Executor struct {
	// Connect makes the run's coordinator once the run's id is known
	// (the first attempt's).
	Connect func(ctx context.Context, runID string) (*Coordinator, error)
	// Remote is the git URL in every request.
	Remote string
	// Request fills in the request's limits (heartbeat timeout,
	// infrastructure tries, wait limit); nil keeps the defaults.
	Request func(*AttemptRequest)

	mu sync.Mutex
	// coords holds a coordinator per run id: a front end may start
	// another run (fresh) with the same executor.
	coords map[string]*Coordinator
}

// Execute makes the attempt on a worker, which makes its workspace: the
// attempt's base (the earlier attempt's work when it continues it,
// Request.Continues) is pushed for it, and the worker's commit comes back
// into this repository's objects, handed over as the result's Commit (a
// commit on Request.Base). No worktree of this machine is read or written.
func (x *Executor) Execute(ctx context.Context, a executor.Attempt, obs executor.AttemptObserver) (ev executor.Result) {
	ev.AgentCommand = a.Agent.Command()
	if a.PromptPath != "" {
		// .autobuild/ keeps the prompt as for a local attempt.
		if err := os.MkdirAll(filepath.Dir(a.PromptPath), 0o755); err == nil {
			_ = os.WriteFile(a.PromptPath, []byte(a.Prompt), 0o644)
		}
	}
	k, err := x.coordinator(ctx, a.RunID)
	if err != nil {
		ev.Fault = executor.FaultOf(err)
		return ev
	}
	base := cmp.Or(a.Continues, a.Base)
	req := AttemptRequest{Request: a.Request, Remote: x.Remote,
		BaseRef: BaseRef(a.RunID, a.PhaseID, a.Seq), ResultRef: ResultRef(a.RunID, a.PhaseID, a.Seq)}
	req.Base = base
	if a.Env.SimScenario != "" {
		// The worker is another machine: the scenario travels as text.
		text, err := os.ReadFile(a.Env.SimScenario)
		if err != nil {
			ev.Fault = executor.FaultOf(fmt.Errorf("reading the simulated agent's scenario for the worker: %w", err))
			return ev
		}
		req.SimScenario = string(text)
	}
	if a.BaseFailing != nil {
		// --allow-red-base: the worker's gates count only the failures the
		// base did not have. Once the check of the base has ended they
		// travel with the attempt; before, the attempt goes at once (its
		// agent runs beside the check, as a local one does) and the
		// worker asks the run's workflow for them when a gate fails.
		if failing, ok := k.KnownBase(); ok {
			req.KnownFailing = failing
		} else {
			req.BasePending = true
			k.AwaitBase(a.BaseFailing)
		}
	}
	if x.Request != nil {
		x.Request(&req)
	}
	var mu sync.Mutex
	var worker string
	announce := func(name string) {
		mu.Lock()
		defer mu.Unlock()
		name = workerLabel(name)
		if name == "" || name == worker {
			return
		}
		worker = name
		fmt.Fprintf(a.Log, "# autobuild: attempt running on worker %s\n", name)
		if wo, ok := obs.(executor.WorkerObserver); ok {
			wo.Worker(name)
		}
	}
	progress := func(p Progress) {
		announce(p.Worker)
		if p.LastLine != "" {
			obs.Output("agent", p.LastLine)
		}
	}
	var res AttemptResult
	keys, err := k.Leftover(ctx, a.PhaseID)
	if err == nil && len(keys) > 0 {
		// A coordinator before this one (killed) sent the phase's attempt:
		// it is running or ran on a worker, and is not made again.
		key := latestKey(keys)
		fmt.Fprintf(a.Log, "# autobuild: re-attaching to attempt %s, sent to the workers before autobuild stopped\n", key)
		res, err = k.Reattach(ctx, key, req, progress)
		base = "" // made on its own coordinator's base
	} else {
		res, err = k.Attempt(ctx, req, progress)
	}
	if err != nil {
		ev.Fault, ev.Interrupted = executor.FaultOf(err), ctx.Err() != nil
		return ev
	}
	// An attempt shorter than a heartbeat's round trip names its worker
	// only here.
	announce(res.Worker)
	return x.evidence(ctx, k.shared.Repo, a, obs, res, base)
}

// evidence turns the worker's result into the engine's, with the work
// handed over as a commit on the workspace's base (Result.Commit).
func (x *Executor) evidence(ctx context.Context, repo string, a executor.Attempt, obs executor.AttemptObserver, res AttemptResult, base string) (ev executor.Result) {
	if res.Limit != nil && res.Limit.Result != nil {
		limit := res.Limit
		res = *limit.Result
		if res.AgentSignal == nil {
			res.AgentSignal = &failure.AgentSignal{Type: failreport.RateLimited, Message: limit.Message, ResetsAt: limit.ResetsAt}
		}
	}
	if res.LogTail != "" {
		fmt.Fprintf(a.Log, "# autobuild: the end of worker %s's log of the attempt:\n%s\n", sanitize.Line(res.Worker), sanitize.Text(res.LogTail))
	}
	ev = res.Result
	ev.Change, ev.Fault = gitx.Known{}, nil
	ev.AgentCommand = a.Agent.Command()
	ev.Worktree = a.Workspace
	if res.Interrupted {
		ev.Interrupted = true
		obs.AgentEnded(ev)
		return ev
	}
	if res.Fault != nil {
		ev.Fault = &executor.Fault{Message: fmt.Sprintf("phase %s's attempt on the workers: %s", a.DisplayID, sanitize.Line(res.Fault.Message))}
		return ev
	}
	if res.Setup != nil {
		// The worker's [worktree] setup failed: no agent ran.
		return ev
	}
	obs.AgentEnded(ev)
	kinds := make([]string, 0, len(res.Gates))
	for kind := range res.Gates {
		kinds = append(kinds, kind)
	}
	slices.Sort(kinds)
	for _, kind := range kinds {
		obs.GateEnded(kind, res.Gates[kind])
	}
	// The work is handed over as a commit on the attempt's base whose
	// tree is the attempt's whole change: landing commits that tree.
	work := res.Commit
	switch {
	case work != "" && base == "":
		// Made on the base of the coordinator before this one (re-attached
		// after a crash): its change is merged onto this one's.
		merged, err := mergeOnto(ctx, repo, a.Base, work)
		if err != nil {
			ev.Fault = executor.FaultOf(fmt.Errorf("phase %s: %w", a.DisplayID, err))
			return ev
		}
		work = merged
	case work == "":
		// The worker changed nothing: the attempt's work is what it
		// started from (an earlier attempt's work it continued, or
		// nothing at all).
		work = cmp.Or(a.Continues, a.Base)
	}
	work, err := onBase(ctx, repo, a.Base, work)
	if err == nil {
		ev.FilesChanged, err = gitx.CommitFiles(ctx, repo, a.Base, work)
	}
	if err != nil {
		ev.Fault = executor.FaultOf(fmt.Errorf("phase %s: reading the worker's commit %s: %w", a.DisplayID, work, err))
		return ev
	}
	ev.Commit = work
	return ev
}

// latestKey is the key of the latest attempt among keys ("<phase>/<seq>",
// one phase's): the highest seq, as a number ("1/10" is after "1/9", which
// sorts after it as text).
func latestKey(keys []string) string {
	return slices.MaxFunc(keys, func(a, b string) int { return cmp.Compare(keySeq(a), keySeq(b)) })
}

// keySeq is the seq of an attempt's key, -1 when it has none.
func keySeq(key string) int {
	_, seq, _ := strings.Cut(key, "/")
	n, err := strconv.Atoi(seq)
	if err != nil {
		return -1
	}
	return n
}

// workerLabel is a worker's name as the run shows and records it: a
// worker names itself (--identity) on another machine, so its name is
// cleaned (sanitize.Line) and its runs of blanks, tabs among them (a
// column of autobuild status), made one space.
func workerLabel(name string) string {
	return strings.Join(strings.Fields(sanitize.Line(name)), " ")
}

// OwnsWorkspace says the workers make the attempts' workspaces: the phase
// runner makes none here.
func (x *Executor) OwnsWorkspace() bool { return true }

// Apart says the attempts never touch your checkout: they run on workers.
func (x *Executor) Apart() bool { return true }

// coordinator makes the run's coordinator on the first attempt.
func (x *Executor) coordinator(ctx context.Context, runID string) (*Coordinator, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if runID == "" {
		return nil, errors.New("the attempt names no run: the Temporal executor needs the run's id")
	}
	if k, ok := x.coords[runID]; ok {
		return k, nil
	}
	k, err := x.Connect(ctx, runID)
	if err != nil {
		return nil, err
	}
	if x.coords == nil {
		x.coords = map[string]*Coordinator{}
	}
	x.coords[runID] = k
	return k, nil
}

// Finish ends the run's workflow and deletes its refs; Close lets go of
// the server. Both are no-ops when no attempt was made.
func (x *Executor) Finish(ctx context.Context) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	var errs []error
	for _, k := range x.coords {
		errs = append(errs, k.Finish(ctx))
	}
	return errors.Join(errs...)
}

// Close lets go of the server; the workflow and its attempts go on.
func (x *Executor) Close() {
	x.mu.Lock()
	defer x.mu.Unlock()
	for id, k := range x.coords {
		k.Close()
		delete(x.coords, id)
	}
}
