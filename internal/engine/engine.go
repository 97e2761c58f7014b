// Package engine runs a plan: it schedules the phases batch by batch, runs
// each attempt in its own git worktree, verifies it with the quality gates,
// retries a failure once, halts on an unrecoverable one, and integrates
// completed phases onto the run's line. It knows nothing of how it is shown:
// it emits events (package event) and writes state files (package state).
package engine

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/agent/preset"
	"github.com/autobuild-sh/autobuild/internal/budget"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/gates"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/history"
	"github.com/autobuild-sh/autobuild/internal/line"
	"github.com/autobuild-sh/autobuild/internal/localexec"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/record"
	"github.com/autobuild-sh/autobuild/internal/runstart"
	"github.com/autobuild-sh/autobuild/internal/schedule"
	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/wtenv"
)

// Config is one run's configuration.
type Config struct {
	// Dir is where autobuild was started; the repository is found from it.
	Dir string
	// Repo is the repository of Dir when the caller has opened it already;
	// nil opens it.
	Repo *gitx.Repo
	Plan *plan.Plan
	// CommitMode is auto, message-only or single; required for a new run,
	// taken from run.json on resume.
	CommitMode state.CommitMode
	// Agents in order of preference: attempt 1 uses the first, a retry the
	// second when there is one.
	Agents      []agent.Agent
	MaxParallel int
	// Schedule is batches or eager; "" takes the resumed run's, else
	// batches.
	Schedule     state.Schedule
	PhaseTimeout time.Duration
	IdleTimeout  time.Duration
	// Grace is how long a stopped process gets between SIGTERM and SIGKILL.
	Grace       time.Duration
	ConfigGates []plan.Gate
	// AllowEmptyPhases is recorded in run.json (--allow-empty-phases), so
	// the printed resume command needs no flag.
	AllowEmptyPhases bool
	Classifier       *failure.Classifier
	SimScenario      string
	// Resume and Fresh are the --resume and --fresh flags.
	Resume, Fresh bool
	Sink          event.Sink
	// HardStop, when closed, kills every running process at once.
	HardStop <-chan struct{}
	Now      func() time.Time
	// LogCap bounds each attempt log (head and tail are kept).
	LogCap int64
	// Backoff is the wait before the n-th repeat of a rate-limited attempt
	// (DefaultBackoff when nil), spread by ±20 % unless NoJitter.
	Backoff  func(n int) time.Duration
	NoJitter bool
	// WaitLimit is the longest a phase waits for a usage limit to reset
	// (--wait-limit); 0 never waits: the run halts with the reset time.
	WaitLimit time.Duration
	// RateLimitCap bounds the back-off of one attempt's rate limits
	// (RateLimitWaitCap when 0).
	RateLimitCap time.Duration
	// Sleep waits d or until ctx ends (tests give a fake clock's).
	Sleep func(ctx context.Context, d time.Duration)
	// Executor makes the attempts (package executor); nil runs them as local
	// processes in git worktrees.
	Executor executor.Executor
	// Worktree is autobuild.toml's [worktree]: the ignored files, setup,
	// teardown and ports of each phase's worktree (package wtenv).
	Worktree wtenv.Config
	// WorktreeOps replaces the file system's clone and link (tests); nil
	// is the system's.
	WorktreeOps *wtenv.Ops
	// Budget is --max-cost and --max-phase-cost (0: none), recorded in
	// run.json; BudgetHard (--max-cost-hard) stops the running attempts
	// once the run's is reached, rather than let them finish.
	Budget     budget.Limits
	BudgetHard bool
	// Verify is --verify: landing (the default, "") verifies what lands
	// together, off does not (docs/running.md, "The line stays green").
	Verify line.Verify
	// AllowRedBase is --allow-red-base: a base whose gates fail does not
	// stop the run; a gate then counts only failures the base did not have.
	AllowRedBase bool
	// Review is --review: none, phase or batch; "" takes the resumed
	// run's, else none. ReviewPoll is how often a phase awaiting review
	// looks for a decision (DefaultReviewPoll when 0).
	Review     state.ReviewMode
	ReviewPoll time.Duration
}

// Result is how a run ended.
type Result struct {
	Status state.RunStatus
	Reason string
	// Root is the repository root; StateDir its .autobuild directory.
	Root, StateDir string
	CommitMode     state.CommitMode
	// Refused is set when the run stopped before judging any phase: the
	// quality gates already failed on its base (exit 3).
	Refused bool
}

// ExitCode maps the run's status to the process exit code of docs/exit-codes.md.
func (r Result) ExitCode() int {
	if r.Refused {
		return exitcode.Refused
	}
	switch r.Status {
	case state.RunComplete:
		return exitcode.Complete
	case state.RunInterrupted:
		return exitcode.Interrupted
	}
	return exitcode.Halted
}

func (c *Config) defaults() error {
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.MaxParallel <= 0 {
		c.MaxParallel = max(2, runtime.NumCPU())
	}
	if c.PhaseTimeout <= 0 {
		c.PhaseTimeout = 30 * time.Minute
	}
	if c.Grace <= 0 {
		c.Grace = 10 * time.Second
	}
	if c.LogCap <= 0 {
		c.LogCap = 16 << 20
	}
	if c.Backoff == nil {
		c.Backoff = schedule.DefaultBackoff
	}
	if c.RateLimitCap <= 0 {
		c.RateLimitCap = schedule.RateLimitWaitCap
	}
	if c.Sleep == nil {
		c.Sleep = schedule.Sleep
	}
	if c.Sink == nil {
		c.Sink = event.Discard
	}
	if c.Classifier == nil {
		cl, err := failure.NewClassifier(nil)
		if err != nil {
			return err
		}
		c.Classifier = cl
	}
	if len(c.Agents) == 0 {
		return exitcode.Usagef("no agent: pass --agent (%s, sim, or a command line)", strings.Join(preset.Names(), ", "))
	}
	if c.Review != "" {
		if _, err := state.ParseReviewMode(string(c.Review)); err != nil {
			return exitcode.Usagef("--review: %v", err)
		}
	}
	if c.Schedule != "" {
		if _, err := state.ParseSchedule(string(c.Schedule)); err != nil {
			return exitcode.Usagef("--schedule: %v", err)
		}
	}
	if _, err := line.ParseVerify(string(c.Verify)); err != nil {
		return exitcode.Usagef("--verify: %v", err)
	}
	if c.Resume && c.Fresh {
		return exitcode.Usagef("--resume and --fresh contradict each other: pick one")
	}
	return runstart.CheckLookAlikeIDs(c.Plan)
}

// Run executes the plan. It returns an error (with an exit code, see
// ExitCode) when the run could not start; once started, how it ended is in
// the Result.
func Run(ctx context.Context, cfg Config) (Result, error) {
	if err := cfg.defaults(); err != nil {
		return Result{}, err
	}
	var st startup
	res, err := run(ctx, cfg, &st)
	if err != nil && res.Status == "" && ctx.Err() != nil {
		// Ctrl-C while the run was starting: its git commands were
		// stopped, which is an interrupt, not a refusal to start.
		return res, &exitcode.Error{Code: exitcode.Interrupted, Err: &interruptedStart{step: st.step, err: err}}
	}
	return res, err
}

// startup names the step a run is in while it starts, so that a Ctrl-C
// that stops one of its git commands can say what it interrupted. Only the
// run's own goroutine touches it.
type startup struct{ step string }

func (s *startup) at(step string) { s.step = step }

// interruptedStart is a Ctrl-C that stopped a run while it was starting.
// Its message names the step rather than the git command the Ctrl-C
// stopped, whose "signal: terminated" tells the person who pressed it
// nothing; the step's own error stays in the chain. Every step leaves the
// repository and .autobuild/ so that the same command picks up from there.
type interruptedStart struct {
	step string
	err  error
}

func (e *interruptedStart) Error() string {
	return "interrupted before any phase started, while " + e.step + ": run the same command again to continue"
}

func (e *interruptedStart) Unwrap() error { return e.err }

func run(ctx context.Context, cfg Config, st *startup) (Result, error) {
	st.at("opening the repository")
	repo := cfg.Repo
	if repo == nil {
		var err error
		if repo, err = gitx.Open(ctx, cfg.Dir); err != nil {
			return Result{}, exitcode.Refusedf("%w", err)
		}
	}
	root := repo.Root()
	store := state.Open(root)
	res := Result{Root: root, StateDir: store.Dir()}
	if err := gitx.CheckVersion(ctx); err != nil {
		return res, exitcode.Refusedf("%w", err)
	}

	if err := runstart.CheckStateDir(ctx, repo, store); err != nil {
		return res, err
	}
	// A first start that is refused leaves no .autobuild/ behind: the work
	// tree is checked before anything is made, and what the start made is
	// taken away again when a later check refuses it.
	first := !store.DirExists()
	if first {
		if err := runstart.CheckClean(ctx, repo, store, st.at); err != nil {
			return res, err
		}
	}
	if err := store.Init(); err != nil {
		return res, exitcode.Refusedf("creating %s: %w", store.Dir(), err)
	}
	lock, release, err := runstart.LockState(store, first)
	if err != nil {
		return res, err
	}
	started := false
	defer func() { release(started) }()
	if err := runstart.CheckClean(ctx, repo, store, st.at); err != nil {
		return res, err
	}

	st.at("preparing the run's state and worktrees in .autobuild/")
	opts, run, phases, err := runstart.Prepare(ctx, runstart.Options{Dir: cfg.Dir, Plan: cfg.Plan, CommitMode: cfg.CommitMode,
		Schedule: cfg.Schedule, Review: cfg.Review, Agents: cfg.Agents, SimScenario: cfg.SimScenario,
		AllowEmptyPhases: cfg.AllowEmptyPhases, Resume: cfg.Resume, Fresh: cfg.Fresh, Now: cfg.Now}, repo, store)
	if err != nil {
		return res, err
	}
	// What a --fresh start carried over from the earlier run.
	cfg.CommitMode, cfg.Schedule = opts.CommitMode, opts.Schedule
	started = true
	res.CommitMode = run.CommitMode
	rec := record.New(store, cfg.Sink, cfg.Now, run, phases)
	rec.History = history.NewObserver(store.HistoryPath(), cfg.Now())
	st.at("checking the run's line against git")
	tip, err := line.Reconcile(ctx, cfg.Plan, repo, rec, store, st.at)
	if err != nil {
		return res, err
	}

	// The commit mode's way of landing, chosen once (reconcile has
	// checked that it is one).
	strategy, err := line.StrategyFor(run.CommitMode)
	if err != nil {
		return res, exitcode.Refusedf("%w", err)
	}
	lr := &liveRun{cfg: &cfg, repo: repo, store: store, rec: rec, res: res, strategy: strategy,
		integ: line.New(repo, rec, strategy, root, tip)}
	lr.integ.LockHeld = lock.Held
	runner, sched := lr.wire()
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	v := lr.integ.Verifier
	if v != nil {
		v.Stop = runCtx
		v.StartBaseCheck(runCtx, rec, cfg.Plan, tip, cfg.AllowRedBase, stop)
	}
	lr.announce(sched)
	status, reason := sched.Execute(runCtx)
	redBase := v.AwaitBase(context.WithoutCancel(ctx))
	if redBase != nil && ctx.Err() == nil {
		// The base check stopped the run: a refusal, not an interrupt. Its
		// type (run.json's halt_type) puts "fix the base first" at the head
		// of the halt summary's resume steps.
		status, reason = state.RunHalted, redBase.Error()
		rep := failreport.Report{Type: failreport.RedBase, Message: reason}
		rep.SuggestedActions = failure.Suggest(rep)
		sched.HaltReport, sched.HaltPhase = &rep, nil
	}
	runner.teardownAll(ctx)
	runner.discardWorktreeFiles(status == state.RunComplete)
	res, err = lr.finish(context.WithoutCancel(ctx), status, reason, runner.spaces)
	if redBase != nil && ctx.Err() == nil && err == nil {
		res.Refused = true
	}
	if status != state.RunInterrupted {
		// Every git command of the run skipped git's automatic
		// maintenance; it gets its one chance here.
		_ = repo.MaintainOnce(context.WithoutCancel(ctx))
	}
	runner.emptyTrash()
	return res, err
}

// liveRun is a run past its start: the lock is held, the state prepared
// and the run's line reconciled with git.
type liveRun struct {
	cfg   *Config
	repo  *gitx.Repo
	store *state.Store
	rec   *record.Recorder
	integ *line.Integrator
	// strategy is the commit mode's way of landing (line.Strategy).
	strategy line.Strategy
	res      Result
	sched    *schedule.Scheduler
}

// wire builds the phase runner (its executor, its workspaces) and the
// scheduler over it.
func (lr *liveRun) wire() (*phaseRunner, *schedule.Scheduler) {
	cfg, root := lr.cfg, lr.repo.Root()
	run := lr.rec.RunCopy()
	runner := &phaseRunner{cfg: cfg, root: root, store: lr.store, rec: lr.rec, integ: lr.integ,
		gates:      gates.Resolve(cfg.Plan.Gates, cfg.ConfigGates, root, exec.LookPath),
		classifier: cfg.Classifier,
		spaces:     newWorkspaces(lr.repo, lr.store, lr.integ.Refs, lr.integ.Tip),
		exec:       cfg.Executor,
		wtenv:      newWorktreeEnv(root, lr.store, cfg)}
	runner.spaces.keep = runner.wtenv.keep
	runner.spaces.files = runner.wtenv
	if runner.exec == nil {
		runner.exec = &localexec.Executor{Repo: lr.repo, Root: root, Grace: cfg.Grace, HardStop: cfg.HardStop, LogCap: cfg.LogCap, Now: cfg.Now}
	}
	sched := &schedule.Scheduler{Plan: cfg.Plan, Runner: runner, Rec: lr.rec, MaxParallel: cfg.MaxParallel, Schedule: run.Schedule.OrDefault(),
		Timeout: cfg.PhaseTimeout, Agents: cfg.Agents, Backoff: cfg.Backoff, Sleep: cfg.Sleep,
		Limits:   cfg.limitPolicy(),
		Complete: map[phaseid.ID]bool{}, Failed: map[phaseid.ID]*failreport.Report{},
		Budget: schedule.BudgetGuard{Limits: cfg.Budget, Hard: cfg.BudgetHard},
		Quotas: schedule.NewQuotaBook(cfg.MaxParallel, cfg.Now, lr.rec)}
	runner.quotas = sched.Quotas
	runner.nextRun = sched.NextRun
	runner.eager = sched.Schedule == state.ScheduleEager
	lr.sched = sched
	verify, _ := line.ParseVerify(string(cfg.Verify))
	if verify == line.VerifyLanding && localexec.AnyGateRuns(runner.gates) {
		lr.integ.Verifier = &line.Verifier{Repo: lr.repo, Gates: runner.gates, Dir: lr.store.VerifyWorktreePath(),
			LogPath: lr.store.VerifyLogPath(), Timeout: cfg.PhaseTimeout, Grace: cfg.Grace, HardStop: cfg.HardStop,
			Parallel: cfg.MaxParallel, Ready: runner.wtenv.readyVerify}
	}
	lr.rec.UpdateRun(func(r *state.Run) { r.Verify = string(verify) })
	return runner, sched
}

// announce marks the run running, says so, and counts the phases done
// before it (by the plan or an earlier run) as complete.
func (lr *liveRun) announce(sched *schedule.Scheduler) {
	cfg, rec := lr.cfg, lr.rec
	rec.UpdateRun(func(r *state.Run) {
		r.Status = state.RunRunning
		r.PID = os.Getpid()
		r.HaltReason = ""
		runstart.StartSession(r, cfg.Now().UTC())
		r.Finished = nil
		r.HaltType = ""
		r.MaxCostUSD, r.MaxPhaseCostUSD = cfg.Budget.Run, cfg.Budget.Phase
	})
	run := rec.RunCopy()
	startLine := fmt.Sprintf("%s: %d phases, commit=%s, %s",
		cfg.Plan.Path, len(cfg.Plan.Phases), run.CommitMode, agentsText(cfg.Agents))
	if sched.Schedule != state.ScheduleBatches {
		// Said only when it is not the default, so batch runs print as
		// they always did.
		startLine += ", schedule " + string(sched.Schedule)
	}
	startLine += schedule.BudgetLine(cfg.Budget)
	rec.Emit(event.Event{Kind: event.RunStarted, Line: startLine, Budget: lr.budgetNow()})
	for _, p := range cfg.Plan.Phases {
		ps := rec.Get(p.ID)
		switch {
		case ps.Status == state.PhaseSkipped:
			sched.Complete[p.ID] = true
			rec.Emit(event.Event{Kind: event.PhaseSkipped, PhaseID: p.ID, DisplayID: p.DisplayID, PhaseName: p.Name,
				Line: "the plan marks it " + string(p.Status)})
		case ps.Status == state.PhaseComplete:
			sched.Complete[p.ID] = true
			rec.Emit(event.Event{Kind: event.PhaseSkipped, PhaseID: p.ID, DisplayID: p.DisplayID, PhaseName: p.Name,
				Line: "completed in an earlier run", Commit: ps.Commit})
		}
	}
}

func orderedPhases(pl *plan.Plan, rec *record.Recorder) []*state.Phase {
	out := make([]*state.Phase, 0, len(pl.Phases))
	for _, p := range pl.Phases {
		ps := rec.Get(p.ID)
		out = append(out, &ps)
	}
	return out
}

// agentsText names the run's agents in --agent order: "agent claude", or
// "agents claude, codex" when several take turns.
func agentsText(agents []agent.Agent) string {
	names := make([]string, len(agents))
	for i, a := range agents {
		names[i] = a.Name
	}
	if len(names) == 1 {
		return "agent " + names[0]
	}
	return "agents " + strings.Join(names, ", ")
}

// budgetNow is the run's budgets and spend for an event, nil without a
// budget.
func (lr *liveRun) budgetNow() *event.Budget {
	if lr.sched == nil {
		return nil
	}
	return lr.sched.BudgetNow()
}

// limitPolicy is the run's policy for providers' limits.
func (c *Config) limitPolicy() schedule.LimitPolicy {
	lp := schedule.LimitPolicy{WaitLimit: c.WaitLimit, RateCap: c.RateLimitCap, Now: c.Now, Jitter: schedule.Jitter}
	if c.NoJitter {
		lp.Jitter = nil
	}
	return lp
}
