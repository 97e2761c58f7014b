package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/checkout"
	"github.com/autobuild-sh/autobuild/internal/clip"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/gates"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/line"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/proc"
	"github.com/autobuild-sh/autobuild/internal/record"
	"github.com/autobuild-sh/autobuild/internal/runstart"
	"github.com/autobuild-sh/autobuild/internal/schedule"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// phaseRunner is the real runner: for each attempt it prepares the phase's
// workspace and prompt, has the executor run the agent and the gates, and
// then records the evidence, classifies a failure or lands the work through
// the integrator.
type phaseRunner struct {
	cfg        *Config
	root       string
	store      *state.Store
	rec        *record.Recorder
	gates      []gates.Gate
	classifier *failure.Classifier
	integ      *line.Integrator
	spaces     *workspaces
	exec       executor.Executor
	// wtenv makes each worktree ready: files, setup, ports (wtenv.go).
	wtenv *worktreeEnv
	// eager is set under the eager schedule: prompts speak of no batch.
	eager bool
	// quotas is the agents' quotas, shared with the scheduler.
	quotas *schedule.QuotaBook
	// nextRun counts a run of a phase's agent that the runner starts by
	// itself (a steered attempt's continuation); the scheduler's count.
	nextRun func(phaseid.ID) int
}

func (r *phaseRunner) Attempt(ctx context.Context, req schedule.AttemptRequest) schedule.AttemptResult {
	p := req.Phase
	t := &attemptTrack{p: p, req: req, started: r.cfg.Now()}
	prior := r.rec.Get(p.ID)
	if prior.Status == state.PhaseAwaitingReview && prior.Review != nil {
		// It awaited review when the run stopped: nothing runs again.
		t.seq = len(prior.Attempts)
		return r.resumeReview(ctx, t, *prior.Review)
	}
	t.seq = len(prior.Attempts) + 1 // log files count every attempt ever
	logPath := r.store.AttemptLogPath(p.ID, t.seq)
	wt := r.spaces.path(p.ID)
	// An executor that owns its workspaces (another machine's) gets no
	// worktree here: the phase has a base and its earlier work as commits
	// (apartspace.go).
	owns := executor.OwnsWorkspace(r.exec)
	recorded := wt // a phase held for review gets one (apartspace.go)
	if owns {
		wt = ""
		if !r.reviewMode().Holds() {
			recorded = ""
		}
	}

	r.rec.AttemptStarted(p.ID, req.Number, schedule.MaxAttempts, req.Agent.Name, t.started, r.rel(recorded), r.rel(logPath))
	r.rec.Emit(phaseEvent(event.PhaseStarted, p, req.Number, event.Event{Batch: prior.Batch, Agent: req.Agent.Name}))

	log, err := proc.CreateCapped(logPath, r.cfg.LogCap)
	if err != nil {
		return r.fail(t, infraFailure(req, fmt.Errorf("creating the attempt log: %w", err)))
	}
	defer log.Close()

	// Your checkout is read while the worktree is made ready: the two
	// touch different trees, and neither need wait for the other.
	before := make(chan checkout.State, 1)
	if executor.SharesCheckout(r.exec) {
		go func() { before <- r.integ.Guard.Snapshot(ctx) }()
	} else {
		before <- checkout.State{} // nothing to compare: the attempt runs elsewhere
	}
	var base, note, work string
	var continues bool
	if owns {
		base, work, continues, err = r.spaces.prepareApart(ctx, p.ID, p.DisplayID)
		if err == nil && continues && line.AfterIntegrationConflict(req.Previous) {
			base, work, err = r.spaces.moveWorkOnto(ctx, p.ID, r.integ.Tip(), log)
		}
	} else {
		wt, base, continues, note, err = r.spaces.prepare(ctx, p.ID, p.DisplayID)
		if err == nil && continues && line.AfterIntegrationConflict(req.Previous) {
			// Its change broke a gate on top of what landed meanwhile: the
			// retry starts from the line's current tip, the change on top.
			base, err = r.spaces.moveOnto(ctx, p.ID, r.integ.Tip(), log)
		}
	}
	outside := <-before
	if note != "" {
		fmt.Fprintf(log, "# autobuild: %s\n", note)
	}
	if err != nil {
		if ctx.Err() != nil {
			return r.interrupted(t)
		}
		return r.fail(t, workspaceFailure(req, err))
	}
	where := "worktree " + r.rel(wt)
	if owns {
		where = "workspace the executor's"
	}
	fmt.Fprintf(log, "# autobuild: phase %s attempt %d/%d, agent %s, %s, base %s, time limit %s\n",
		p.DisplayID, req.Number, schedule.MaxAttempts, req.Agent.Name, where, clip.SHA(base), req.Timeout)

	// The executor that owns its workspace makes it ready itself: only the
	// ports are given here.
	env := r.readyWorktree(ctx, t, wt, continues || owns, log)
	defer env.release()
	if env.interrupted {
		return r.interrupted(t)
	}
	if env.failed != nil {
		return r.fail(t, *env.failed)
	}
	a := r.newAttempt(t, wt, base, continues, log)
	a.WorkEnv = env.vars
	if owns {
		a.Continues, a.Setup, a.Teardown = work, r.wtenv.cfg.Setup, r.wtenv.cfg.Teardown
	}
	// Once it landed, its worktree's teardown runs (wtenv.go), after a
	// person's review too.
	t.landed = func() { r.wtenv.teardown(ctx, p.ID, append(r.phaseVars(p.ID), env.vars...), log) }
	t.workEnv = env.vars
	// From its agent's end to its landing the attempt may be about to land:
	// a landing that verifies waits a moment for it (line/landqueue.go).
	gating := r.integ.Gating.Track()
	defer gating.Done()
	// A person's note stops the attempt as a Ctrl-C would (steer.go).
	actx, stopAttempt := context.WithCancel(ctx)
	defer stopAttempt()
	steer, stopWatch := r.watchSteer(ctx, p.ID, t.started, stopAttempt)
	ev := r.exec.Execute(actx, a, &attemptObserver{rec: r.rec, p: p, number: req.Number, quotas: r.quotas, agentEnded: gating.Start})
	stopWatch()
	if n := steer.taken(); n != nil {
		if ev.Interrupted && ctx.Err() == nil {
			// Not about to land: the continuation is an attempt of its own.
			gating.Done()
			return r.steered(ctx, t, n, ev.Session)
		}
		r.steerTooLate(t, n)
	}
	if ev.Interrupted {
		return r.interrupted(t)
	}
	if r.integ.Verifier.AwaitBase(ctx) != nil {
		// The run's base is red: the run stops, and no attempt is charged.
		return r.interrupted(t)
	}
	r.recordGates(p.ID, ev)
	if ev.Setup != nil {
		return r.fail(t, r.executorSetupFailed(ev.Setup))
	}
	if ev.Fault != nil {
		// The executor's machinery failed (git on the worktree): autobuild's
		// trouble, not the agent's, and not to be read as its output.
		return r.fail(t, infraFailure(req, ev.Fault))
	}
	if owns {
		if ev.Commit == "" {
			// Nothing changed where it ran (Result.Commit): the work is
			// what the attempt started from. There is no workspace here to
			// read it from: landing would read your checkout's.
			ev.Commit, ev.Change = cmp.Or(work, base), gitx.Known{}
		}
		// A retry continues the work (after a failure here or in landing:
		// moved onto the line after an integration_conflict), and a
		// failure's diff is its.
		r.spaces.keepWork(p.ID, ev.Commit)
	}
	ev.Attempt = req.Number
	ev.Duration = r.cfg.Now().Sub(t.started)
	rep, after := r.integ.Guard.Check(ctx, p, outside, ev.FilesChanged, log)
	if rep != nil {
		rep.Attempt, rep.DurationSeconds = req.Number, ev.Duration.Seconds()
		return r.fail(t, *rep)
	}
	switch holds := r.reviewMode().Holds(); {
	case owns && failed(ev.Evidence):
		// Its work is kept above, as a commit: no worktree to put it in.
	case owns && holds && ev.Commit != "":
		// A person reviews the work in a worktree made for it here.
		if wt, err = r.spaces.materialize(ctx, p.ID, base, ev.Commit); err != nil {
			return r.fail(t, infraFailure(req, fmt.Errorf("phase %s: %w", p.DisplayID, err)))
		}
		ev.Commit, ev.Change = "", gitx.Known{}
	case ev.Commit != "" && (failed(ev.Evidence) || holds):
		// The work was handed over as a commit, but a failure's diff, the
		// retry that continues it and a person's review read it from the
		// phase's worktree: it is put there.
		if err := gitx.PutWork(ctx, wt, ev.Commit); err != nil {
			return r.fail(t, infraFailure(req, fmt.Errorf("phase %s: %w", p.DisplayID, err)))
		}
		ev.Commit, ev.Change = "", gitx.Known{}
	}
	if failed(ev.Evidence) {
		return r.fail(t, line.StillConflicting(r.classify(ev.Evidence, req), ev.Evidence, req.Previous))
	}

	// A commit handed over lands as it is (its tree); else the work is
	// read from the worktree.
	h := line.Handover{Workspace: wt, Base: base, AgentMessage: ev.CommitMessage, Known: ev.Change, Commit: ev.Commit, Queued: gating.Done}
	if r.reviewMode().Holds() {
		// A person decides before it lands (review.go): no landing
		// waits for it meanwhile.
		gating.Done()
		end, d, err := r.holdForReview(ctx, t, wt, base, ev.CommitMessage)
		return r.afterReview(ctx, t, end, d, err, h)
	}
	return r.landAttempt(ctx, t, h, after)
}

// landAttempt lands a phase whose gates passed, and records how it went.
func (r *phaseRunner) landAttempt(ctx context.Context, t *attemptTrack, h line.Handover, after checkout.State) schedule.AttemptResult {
	p, req := t.p, t.req
	// Landing is a few short git commands; neither a Ctrl-C nor the hard
	// stop interrupts them halfway through a pick or the fast-forward
	// of the user's branch: they run to the end, then the run stops.
	commit, conflict, err := r.integ.Land(context.WithoutCancel(ctx), p, h, after)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, context.Canceled) {
			// A Ctrl-C stopped the verification of its landing: nothing
			// landed, and the phase runs again on resume.
			return r.interrupted(t)
		}
		return r.fail(t, infraFailure(req, err))
	}
	if conflict != nil {
		conflict.Attempt = req.Number
		conflict.DurationSeconds = r.cfg.Now().Sub(t.started).Seconds()
		return r.fail(t, *conflict)
	}
	if t.landed != nil {
		t.landed()
	}
	return r.complete(ctx, t, commit)
}

// attemptTrack is what the phase runner knows of an attempt in progress.
type attemptTrack struct {
	p       *plan.Phase
	req     schedule.AttemptRequest
	started time.Time
	// seq counts every attempt of the phase ever; it names the files.
	seq int
	// recheckFailed is the failure of the gates run again on a person's
	// change in review (reviewcheck.go).
	recheckFailed *failreport.Report
	// landed, when set, runs once the phase landed, before it is recorded
	// complete: its worktree's teardown. workEnv is its worktree's
	// variables (ports), for the gates run again in review.
	landed  func()
	workEnv []string
}

// newAttempt is the executor's brief: the prompt, the agent's command line
// and environment, the workspace and the limits.
func (r *phaseRunner) newAttempt(t *attemptTrack, wt, base string, continues bool, log io.Writer) executor.Attempt {
	p, req := t.p, t.req
	prompt, args := r.promptFor(p, req, continues, log)
	absPlan := runstart.PlanFile(r.cfg.Dir, r.cfg.Plan.Path)
	return executor.Attempt{
		Request: executor.Request{
			RunID:   r.rec.RunCopy().RunID,
			PhaseID: p.ID, DisplayID: p.DisplayID, Number: req.Number, Seq: t.seq,
			Agent: req.Agent, Args: args, Prompt: prompt,
			Env: agent.EnvInput{PhaseID: p.ID, Attempt: req.Number, MaxAttempts: schedule.MaxAttempts,
				PlanPath: absPlan, SimScenario: r.cfg.SimScenario, AgentRun: req.Run},
			Base: base, Branch: r.spaces.refs.Phase(p.ID), KeepBranch: r.spaces.refs.KeptAutostash(p.ID), Gates: r.gates,
			Started: t.started, Timeout: req.Timeout, IdleTimeout: r.cfg.IdleTimeout,
			PlanInRepo: r.planInRepo(),
			Session:    acpSession(req, continues),
		},
		Workspace: wt, PromptPath: r.store.PromptPath(p.ID, t.seq),
		Log: log, StreamPath: r.store.AttemptStreamPath(p.ID, t.seq),
		BaseFailing: r.baseFailing(),
	}
}

// baseFailing is the attempt's handle on the base's known failing tests:
// only with --allow-red-base (without it a red base stops the run, and an
// executor need not wait for the base check to learn there are none).
func (r *phaseRunner) baseFailing() func() map[string][]string {
	if !r.cfg.AllowRedBase {
		return nil
	}
	return r.integ.BaseFailing
}

// acpSession is the session an ACP agent loads to continue after its
// context ran out, "" for a new session.
func acpSession(req schedule.AttemptRequest, continues bool) string {
	if continues && req.Session != "" && agent.LoadsSession(req.Agent) {
		return req.Session
	}
	return ""
}

// recordGates records the gates' results, when any gate was considered.
func (r *phaseRunner) recordGates(id phaseid.ID, ev executor.Result) {
	switch {
	case ev.Gates == nil:
	case !ev.AgentRan && ev.Gate != nil:
		// A declared gate's tool is missing: the agent was not started.
		r.rec.GatesNotRun(id, ev.Gates)
	default:
		r.rec.GatesChecked(id, ev.Gates, ev.Gate == nil)
	}
}

// classify turns a failed attempt's evidence into its report: its type,
// whether the retry may fix it, and whether it repeats an earlier failure.
func (r *phaseRunner) classify(ev failure.Evidence, req schedule.AttemptRequest) failreport.Report {
	rep := r.classifier.Classify(ev)
	rep.Retryable = rep.Type.Retryable()
	schedule.NoteLimit(&rep, ev.AgentSignal, ev.AgentOutput, r.cfg.Now())
	// A rate-limited attempt is repeated, not fixed: its repeats are
	// neither a circular fix nor history a fix could repeat.
	if rep.Retryable && rep.Type.ConsumesRetry() && failure.IsCircular(rep, fixAttempts(req.Previous)) {
		rep.Circular = true
		rep.Retryable = false
	}
	return rep
}

// attemptObserver passes what an executor reports while it runs on as
// events, and records what the agent spent and claimed.
type attemptObserver struct {
	rec    *record.Recorder
	p      *plan.Phase
	number int
	// quotas hears the agent CLI's quota (schedule/quota.go); nil in tests.
	quotas *schedule.QuotaBook
	// agentEnded, when set, is called as the agent ends.
	agentEnded func()
}

func (o *attemptObserver) Output(stream, line string) {
	o.rec.Emit(event.Event{Kind: event.PhaseOutput, PhaseID: o.p.ID, DisplayID: o.p.DisplayID,
		Attempt: o.number, Stream: stream, Line: line})
}

func (o *attemptObserver) Action(tool, text string) {
	o.rec.Emit(event.Event{Kind: event.AgentAction, PhaseID: o.p.ID, DisplayID: o.p.DisplayID,
		Attempt: o.number, Tool: tool, Line: text})
}

func (o *attemptObserver) AgentEnded(ev executor.Result) {
	o.rec.AgentEnded(o.p.ID, ev)
	if o.agentEnded != nil && !executor.AgentFailed(ev.Evidence) {
		o.agentEnded()
	}
}

// Worker records which worker took the attempt, on the attempt in the
// phase's file (watch, status, the history), and tells the front ends.
func (o *attemptObserver) Worker(name string) {
	o.rec.AttemptWorker(o.p.ID, name)
	o.rec.Emit(phaseEvent(event.PhaseWorker, o.p, o.number, event.Event{Line: name}))
}

func (o *attemptObserver) GateEnded(kind string, gr state.GateResult) {
	o.rec.Emit(phaseEvent(event.GateResult, o.p, o.number, event.Event{
		Gate: &event.Gate{Kind: kind, Command: gr.Command, Status: gr.Status, ExitCode: gr.ExitCode,
			DurationSeconds: gr.DurationSeconds, KnownFailures: gr.KnownFailures}}))
}

func (o *attemptObserver) Lines() proc.LineMode { return o.rec.LineMode() }

// phaseEvent is e with the kind and the phase's identity and attempt set.
func phaseEvent(kind event.Kind, p *plan.Phase, number int, e event.Event) event.Event {
	e.Kind, e.PhaseID, e.DisplayID, e.PhaseName = kind, p.ID, p.DisplayID, p.Name
	e.Attempt, e.MaxAttempts = number, schedule.MaxAttempts
	return e
}

// fail records a failed attempt: its report, its diff, and the phase's status.
func (r *phaseRunner) fail(t *attemptTrack, rep failreport.Report) schedule.AttemptResult {
	p, req := t.p, t.req
	now := r.cfg.Now()
	if rep.DurationSeconds == 0 {
		rep.DurationSeconds = now.Sub(t.started).Seconds()
	}
	rep.Attempt = req.Number
	if len(rep.SuggestedActions) == 0 {
		rep.SuggestedActions = failure.Suggest(rep)
	}
	// Against the phase's base, the diff holds the attempt's work even when
	// it was committed already (a file_conflict found at integration).
	diffPath := ""
	if diff, err := r.spaces.diff(context.Background(), p.ID); err == nil && diff != "" {
		diffPath = r.store.AttemptDiffPath(p.ID, t.seq)
		if os.WriteFile(diffPath, []byte(diff), 0o644) != nil {
			diffPath = ""
		}
	}
	r.rec.AttemptFailed(p.ID, &rep, t.started, now, r.rel(diffPath))
	r.rec.Emit(phaseEvent(event.PhaseFailed, p, req.Number, event.Event{Agent: req.Agent.Name, Failure: &rep,
		DurationSeconds: now.Sub(t.started).Seconds(), Usage: r.rec.AttemptUsage(p.ID)}))
	return schedule.AttemptResult{Outcome: state.OutcomeFailed, Report: &rep}
}

// interrupted records an attempt stopped by Ctrl-C: not a failure, so resume
// re-runs it without using up the retry.
func (r *phaseRunner) interrupted(t *attemptTrack) schedule.AttemptResult {
	r.rec.AttemptInterrupted(t.p.ID, t.started, r.cfg.Now())
	r.rec.Emit(phaseEvent(event.PhaseInterrupted, t.p, t.req.Number, event.Event{}))
	return schedule.AttemptResult{Outcome: state.OutcomeInterrupted}
}

func (r *phaseRunner) complete(ctx context.Context, t *attemptTrack, commit *state.Commit) schedule.AttemptResult {
	p, req := t.p, t.req
	now := r.cfg.Now()
	r.rec.AttemptCompleted(p.ID, commit, t.started, now)
	r.rec.Emit(phaseEvent(event.PhaseCompleted, p, req.Number, event.Event{Agent: req.Agent.Name,
		DurationSeconds: now.Sub(t.started).Seconds(), Usage: r.rec.AttemptUsage(p.ID)}))
	var line string
	switch {
	case commit.SHA != "":
		line = "committed " + clip.SHA(commit.SHA)
	case commit.Message != "" && commit.HasChanges():
		line = "committed on the run's line; lands when the run completes"
	default:
		line = "no changes to commit"
	}
	r.rec.Emit(event.Event{Kind: event.PhaseIntegrated, PhaseID: p.ID, DisplayID: p.DisplayID, PhaseName: p.Name,
		Commit: commit, Line: line})
	r.spaces.release(ctx, p.ID)
	return schedule.AttemptResult{Outcome: state.OutcomeComplete}
}

func (r *phaseRunner) previousDiff(id phaseid.ID) string {
	ps := r.rec.Get(id)
	for i := len(ps.Attempts) - 1; i >= 0; i-- {
		if ps.Attempts[i].DiffPath != "" {
			return ps.Attempts[i].DiffPath
		}
	}
	return ""
}

// planInRepo is the plan's path relative to the repository root, or ""
// when the plan lives outside the repository.
func (r *phaseRunner) planInRepo() string {
	abs := runstart.PlanFile(r.cfg.Dir, r.cfg.Plan.Path)
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	rel, err := filepath.Rel(r.root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// abs makes a path relative to the repository root absolute: agents run in
// a worktree, where a root-relative path means nothing.
func (r *phaseRunner) abs(path string) string {
	if path == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(r.root, filepath.FromSlash(path))
}

// rel makes a path relative to the repository root for state files and
// messages; the state directory moves with the repository.
func (r *phaseRunner) rel(path string) string { return state.RelPath(r.root, path) }

// infraFailure reports a failure of autobuild's own machinery (git, the
// file system) during an attempt as an agent_error, so it gets the retry.
func infraFailure(req schedule.AttemptRequest, err error) failreport.Report {
	if rep, ok := diskFullReport(err); ok {
		rep.Attempt = req.Number
		return rep
	}
	return failreport.Report{Type: failreport.AgentError, Message: err.Error(), Retryable: true, Attempt: req.Number}
}

// fixAttempts are the reports of earlier attempts that tried a fix: those
// of types that use up the retry.
func fixAttempts(reports []failreport.Report) []failreport.Report {
	var out []failreport.Report
	for _, r := range reports {
		if r.Type.ConsumesRetry() {
			out = append(out, r)
		}
	}
	return out
}

func failed(ev failure.Evidence) bool {
	return executor.AgentFailed(ev) || ev.Gate != nil || ev.ResultStatus == "failed" ||
		(ev.ResultRequired && (!ev.ResultFound || ev.ResultParseErr != "")) || ev.ResultOtherPhase != "" ||
		(ev.TasksTotal > 0 && ev.TasksCompleted < ev.TasksTotal)
}

func gatePlan(gs []gates.Gate) []plan.Gate {
	out := make([]plan.Gate, 0, len(gs))
	for _, g := range gs {
		if !g.Skipped() {
			out = append(out, plan.Gate{Kind: g.Kind, Command: g.Command})
		}
	}
	return out
}

// Quota passes an agent CLI's quota to the run's book.
func (o *attemptObserver) Quota(agentName string, q agent.Quota) {
	if o.quotas != nil {
		o.quotas.Note(agentName, q)
	}
}
