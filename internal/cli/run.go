package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/autobuild-sh/autobuild/internal/agent/preset"
	"github.com/autobuild-sh/autobuild/internal/agent/sim"
	"github.com/autobuild-sh/autobuild/internal/config"
	"github.com/autobuild-sh/autobuild/internal/engine"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/line"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/printer"
	"github.com/autobuild-sh/autobuild/internal/runctl"
	"github.com/autobuild-sh/autobuild/internal/schedule"
	"github.com/autobuild-sh/autobuild/internal/shell"
	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/summary"
)

// runOptions are the run flags (README, "Using it").
type runOptions struct {
	planPath     string
	commit       string
	resume       bool
	fresh        bool
	dryRun       bool
	agents       []string
	maxParallel  int
	schedule     string
	review       string
	phaseTimeout time.Duration
	idleTimeout  time.Duration
	waitLimit    time.Duration
	noTUI        bool
	json         bool
	verbose      bool
	scenario     string
	allowEmpty   bool
	flags        *pflag.FlagSet
	// verify and allowRedBase are --verify and --allow-red-base.
	verify       string
	allowRedBase bool
	// identityNote, set by engineConfig, says that commits will carry
	// autobuild's fallback identity (git has none here).
	identityNote string
	// copyNote, set by engineConfig, says that the ignored files [worktree]
	// copy names do not reach the workers of a remote run (remoterun.go).
	copyNote string
	// runMode is the commit mode the run will use: the flag's or the
	// file's, else (--fresh or a resume without --commit) the previous
	// run's, for the UI's header and the commands it shows.
	runMode state.CommitMode
	// runSchedule is the schedule the run will use, for the UI's header:
	// the flag's or the file's, else the previous run's, else batches.
	runSchedule state.Schedule
	// commands, when set, builds the resume and fresh command lines shown
	// in the summary (the demo's differ from the command that was run).
	commands func(mode string) string
	// fixStep, when set, is the first resume instruction of a halt (the
	// demo knows its own fix); fixCommand is its command alone.
	fixStep, fixCommand string
	// exitOnComplete ends the terminal UI when the run completes.
	exitOnComplete bool
	// self is how printed commands start autobuild.
	self launcher
	// preflight, when set, replaces the agents' setup checks (tests).
	preflight *preflightEnv
	// agentsFromRun are the agents taken from run.json (no --agent given),
	// which are named before they run. Set by engineConfig.
	agentsFromRun []string
	// maxCost, maxPhaseCost and maxCostHard are the budget flags; notify
	// the --notify values, and notifyConf what they, autobuild.toml and
	// the environment make (set by engineConfig).
	maxCost, maxPhaseCost float64
	maxCostHard           bool
	notify                []string
	notifyConf            notifySettings
	// remoteRun is --executor, --remote and the Temporal flags; its
	// executor, once made by engineConfig, is ended with the run.
	remoteRun remoteOptions
}

func (o *runOptions) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&o.commit, "commit", "", "commit mode, required for a new run: auto (a commit per phase), message-only, single")
	f.BoolVar(&o.resume, "resume", false, "continue the run in .autobuild/ (the default when it exists and the plan is unchanged), with its agents unless --agent is given")
	f.BoolVar(&o.fresh, "fresh", false, "delete .autobuild/ and start from the first phase (commits already made stay)")
	f.BoolVar(&o.dryRun, "dry-run", false, "check the plan and print its batches, like validate; run nothing")
	f.StringArrayVar(&o.agents, "agent", nil, "agent: "+strings.Join(preset.Names(), ", ")+" (with arguments: 'claude --model opus'), 'acp:COMMAND' for any ACP agent, sim, or a command line; repeat it to give the retry a different agent")
	f.IntVar(&o.maxParallel, "max-parallel", 0, "at most N phases at once (default: number of CPUs, at least 2)")
	f.StringVar(&o.schedule, "schedule", "", "batches (the default: the plan's layers one after another) or eager (a phase starts as soon as its dependencies have landed); a resume keeps the run's")
	f.StringVar(&o.review, "review", "", "none (the default: phases land once their gates pass), phase (each phase waits for autobuild review or the UI to approve it) or batch (the phases of a batch wait, and are decided together); a resume keeps the run's")
	f.DurationVar(&o.phaseTimeout, "phase-timeout", 0, "time limit per attempt (default 30m); a retry after a timeout gets twice as long")
	f.DurationVar(&o.idleTimeout, "idle-timeout", 0, "fail an attempt that prints nothing for this long (default: no limit)")
	f.DurationVar(&o.waitLimit, "wait-limit", schedule.DefaultWaitLimit, "wait up to this long for a provider's usage limit to reset, then go on without using the retry; past it the run halts with the reset time (0: never wait)")
	f.BoolVar(&o.noTUI, "no-tui", false, "print plain log lines instead of the terminal UI")
	f.BoolVar(&o.json, "json", false, "print one JSON event per line on stdout")
	f.BoolVarP(&o.verbose, "verbose", "v", false, "with --no-tui: also print the agents' and gates' output lines")
	f.StringVar(&o.scenario, "scenario", "", "scenario file for the simulated agent (--agent sim)")
	f.Float64Var(&o.maxCost, "max-cost", 0, "budget in US dollars for the whole run, across resumes: once spent, no new attempt starts and the run halts (budget_exceeded); 0: none")
	f.Float64Var(&o.maxPhaseCost, "max-phase-cost", 0, "budget in US dollars for each phase, across its attempts; 0: none")
	f.BoolVar(&o.maxCostHard, "max-cost-hard", false, "stop the running attempts as soon as the run's budget is reached, rather than let them finish")
	f.StringArrayVar(&o.notify, "notify", nil, "notify on a halt, a long usage-limit wait, a budget reached, the run complete: webhook=URL, command=CMD, desktop, attempts (every failed attempt too), terminal=off, off (repeatable)")
	f.BoolVar(&o.exitOnComplete, "exit-on-complete", false, "end the terminal UI when the run completes, leaving its summary on the terminal (a halt still waits for a key), so autobuild ... && git push goes on")
	f.StringVar(&o.verify, "verify", "", "landing (the default: a phase picked onto a line that moved since it started is verified with the gates on the combination before it lands) or off (each phase on its own gates' word)")
	f.BoolVar(&o.allowRedBase, "allow-red-base", false, "go on when the gates already fail on your branch before the run; a gate then counts only the failures the base did not have")
	f.BoolVar(&o.allowEmpty, "allow-empty-phases", false, "run phases that have no section or linked file from their table row alone (refused otherwise)")
	o.remoteRun.register(f)
}

// runPlan is `autobuild PLAN.md`: parse, configure, run, summarize.
func runPlan(ctx context.Context, s Streams, o *runOptions) error {
	if o.flags != nil && o.flags.Changed("max-parallel") && o.maxParallel < 1 {
		return usageErr("--max-parallel %d: at least 1 phase must be able to run; leave the flag out for the default (the number of CPUs, at least 2)", o.maxParallel)
	}
	if o.flags != nil && o.flags.Changed("schedule") {
		if _, err := state.ParseSchedule(o.schedule); err != nil {
			return usageErr("--schedule: %w", err)
		}
	}
	if o.flags != nil && o.flags.Changed("verify") {
		if _, err := line.ParseVerify(o.verify); err != nil {
			return usageErr("--verify: %w", err)
		}
	}
	if o.flags != nil && o.flags.Changed("review") {
		if _, err := state.ParseReviewMode(o.review); err != nil {
			return usageErr("--review: %w", err)
		}
	}
	if o.dryRun && o.json {
		return printPlanJSON(s.Out, o.planPath, configGates(ctx), worktreeInfo(ctx))
	}
	pl, err := loadPlan(s, o.planPath)
	if err != nil {
		return err
	}
	if o.dryRun {
		printPlan(s.Out, pl, configGates(ctx))
		printWorktree(s.Out, worktreeInfo(ctx))
		return nil
	}
	// Opened once for the checks here and the engine; outside a repository
	// it stays nil and the engine says so.
	repo, _ := gitx.Open(ctx, ".")
	root, err := stateRoot(repo)
	if err != nil {
		return err
	}
	previous, err := previousRun(root)
	if err != nil && !o.fresh {
		// Said before anything is taken from the file's absence (no agent
		// given): the file is what is wrong (docs/state.md). --fresh
		// removes it.
		return &exitcode.Error{Code: exitcode.Refused, Err: err}
	}
	if !o.fresh && previous != nil && previous.AllowEmptyPhases {
		// A resume of a run started with the flag needs no flag: the
		// resume commands autobuild prints name none.
		o.allowEmpty = true
	}
	if err := checkBodies(pl, o.allowEmpty); err != nil {
		return err
	}
	if done := alreadyComplete(pl, o, repo); done != "" {
		fmt.Fprintln(s.Out, done)
		return nil
	}
	cfg, err := o.engineConfig(pl, repo, root, previous)
	if err != nil {
		return err
	}
	if o.identityNote != "" {
		fmt.Fprintln(s.Err, "autobuild: warning: "+o.identityNote)
	}
	if o.copyNote != "" {
		fmt.Fprintln(s.Err, "autobuild: warning: "+o.copyNote)
	}
	noteRecordedAgents(s, o)
	defer o.remoteRun.end(ctx, s)
	if o.json {
		return runHeadless(ctx, s, o, cfg, jsonPrinter, false)
	}
	if !o.noTUI && isTerminal(s.Out) {
		return runTUI(ctx, s, o, cfg)
	}
	return runHeadless(ctx, s, o, cfg, plainPrinter(o.verbose), true)
}

// loadPlan parses and checks the plan, printing every problem; an invalid
// plan is exit 2.
func loadPlan(s Streams, path string) (*plan.Plan, error) {
	pl, err := plan.ParseFile(path)
	if pl != nil {
		for _, w := range pl.Warnings {
			fmt.Fprintln(s.Err, w.String())
		}
	}
	if err != nil {
		if ve, ok := err.(*plan.ValidationError); ok {
			for _, p := range ve.Problems {
				fmt.Fprintln(s.Err, p.String())
			}
			fmt.Fprintf(s.Err, "autobuild: %s is not a valid plan (%s): nothing was run\n", path, ve.Code())
			return nil, &exitError{code: exitcode.Usage}
		}
		return nil, usageErr("%w", err)
	}
	return pl, nil
}

// engineConfig merges autobuild.toml and the flags (flags win), and what
// the previous run in root's .autobuild/ carries over.
func (o *runOptions) engineConfig(pl *plan.Plan, repo *gitx.Repo, root string, previous *state.Run) (engine.Config, error) {
	wd, err := os.Getwd()
	if err != nil {
		return engine.Config{}, err
	}
	if s, err := line.StrategyFor(state.CommitMode(o.commit)); repo != nil && (err != nil || s.MakesCommits()) {
		o.identityNote = repo.IdentityNote()
	}
	fc, err := config.Load(root)
	if err != nil {
		return engine.Config{}, usageErr("%w", err)
	}
	limits, hard, err := o.budgetLimits(fc, previous)
	if err != nil {
		return engine.Config{}, err
	}
	if o.notifyConf, err = o.notifySettings(fc.Notify); err != nil {
		return engine.Config{}, err
	}
	cfg := engine.Config{Budget: limits, BudgetHard: hard, Dir: wd, Repo: repo, Plan: pl, Resume: o.resume, Fresh: o.fresh, ConfigGates: fc.Gates, AllowEmptyPhases: o.allowEmpty,
		Worktree:    fc.Worktree,
		MaxParallel: fc.MaxParallel, PhaseTimeout: fc.PhaseTimeout.Duration,
		IdleTimeout: fc.IdleTimeout.Duration}
	// What the run keeps of the run before it (state.Carry): the commit
	// mode, the schedule, the agents and their scenario, unless given here.
	given := state.Choice{AgentSpecs: o.agents, Scenario: cmp.Or(o.scenario, fc.Scenario)}
	if len(given.AgentSpecs) == 0 {
		given.AgentSpecs = fc.Agent
	}
	if o.flags.Changed("commit") {
		given.CommitMode = state.CommitMode(o.commit)
	}
	if o.flags.Changed("schedule") {
		given.Schedule = state.Schedule(o.schedule)
	}
	if o.fresh || !stateExists(root) {
		// The file's mode and schedule apply to new runs only; a resumed
		// run keeps those it was started with.
		given.CommitMode = cmp.Or(given.CommitMode, state.CommitMode(fc.Commit))
		given.Schedule = cmp.Or(given.Schedule, fc.Schedule)
	}
	// The review mode: the flag's, else the file's; a resume without
	// either keeps the run's (the engine takes it from run.json).
	cfg.Review = state.ReviewMode(o.review)
	if !o.flags.Changed("review") {
		cfg.Review = fc.Review
	}
	choice, carried := state.Carry(previous, given)
	cfg.CommitMode, cfg.Schedule, cfg.SimScenario = choice.CommitMode, choice.Schedule, choice.Scenario
	o.runMode, o.runSchedule = choice.CommitMode, choice.Schedule.OrDefault()
	specs := choice.AgentSpecs
	if carried {
		o.agentsFromRun = specs
	}
	if o.maxParallel > 0 {
		cfg.MaxParallel = o.maxParallel
	}
	if o.phaseTimeout > 0 {
		cfg.PhaseTimeout = o.phaseTimeout
	}
	if o.idleTimeout > 0 {
		cfg.IdleTimeout = o.idleTimeout
	}
	cfg.Verify, cfg.AllowRedBase = line.Verify(cmp.Or(o.verify, fc.Verify)), o.allowRedBase
	cfg.WaitLimit = schedule.DefaultWaitLimit
	if fc.WaitLimit != nil {
		cfg.WaitLimit = fc.WaitLimit.Duration
	}
	if o.flags.Changed("wait-limit") {
		if o.waitLimit < 0 {
			return cfg, usageErr("--wait-limit must be 0 (never wait) or more, not %s", o.waitLimit)
		}
		cfg.WaitLimit = o.waitLimit
	}
	if cfg.SimScenario != "" {
		abs, err := filepath.Abs(cfg.SimScenario)
		if err != nil {
			return cfg, err
		}
		if _, err := sim.LoadScenario(abs); err != nil {
			return cfg, usageErr("scenario %s: %w", cfg.SimScenario, err)
		}
		cfg.SimScenario = abs
	}
	if len(specs) == 0 {
		return cfg, usageErr("no agent given: pass --agent claude (or %s, sim, or any command line), or set agent in autobuild.toml", strings.Join(preset.Names()[1:], ", "))
	}
	for _, spec := range specs {
		a, err := resolveAgent(spec, fc.Agents)
		if err != nil {
			return cfg, usageErr("--agent %q: %w", spec, err)
		}
		cfg.Agents = append(cfg.Agents, a)
	}
	if cfg.Executor, err = o.remoteRun.executor(context.Background(), fc.Executor, root, wd, len(cfg.Agents), cfg.WaitLimit); err != nil {
		return cfg, err
	}
	if cfg.Executor != nil && executor.OwnsWorkspace(cfg.Executor) {
		o.copyNote = copyNote(root, fc.Worktree.Copy)
	}
	if cfg.Executor == nil {
		// A remote run's agents run on the workers, and are checked there.
		if err := preflight(cfg.Agents, root, o.preflight); err != nil {
			return cfg, err
		}
	}
	cl, err := failure.NewClassifier(fc.Classify)
	if err != nil {
		return cfg, usageErr("autobuild.toml: %w", err)
	}
	cfg.Classifier = cl
	return cfg, nil
}

// stateRoot is the directory whose .autobuild/ a run started here uses:
// the repository's root, or the current directory outside a repository
// (where the engine refuses to run and says why).
func stateRoot(repo *gitx.Repo) (string, error) {
	if repo != nil {
		return repo.Root(), nil
	}
	return os.Getwd()
}

// previousRun is the run recorded in root's .autobuild/: nil without
// one, and an error when run.json cannot be read.
func previousRun(root string) (*state.Run, error) {
	run, err := state.Open(root).LoadRun()
	if errors.Is(err, state.ErrNoRun) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return run, nil
}

func stateExists(root string) bool {
	_, err := os.Stat(filepath.Join(root, ".autobuild", "run.json"))
	return err == nil
}

// runHeadless runs the engine with a printer consuming its events, then
// prints the summary box.
//
// A closed standard output (its reader gone) halts the run gracefully, as
// a closed terminal does: the printers write to a closedOutput, and
// SIGPIPE is watched meanwhile so that the write fails rather than kill
// the process. newPrinter makes the printer for the output it is given.
func runHeadless(ctx context.Context, s Streams, o *runOptions, cfg engine.Config, newPrinter func(io.Writer) func(event.Event), box bool) error {
	pipes := make(chan os.Signal, 1)
	signal.Notify(pipes, syscall.SIGPIPE)
	defer signal.Stop(pipes)
	ctx, halt := context.WithCancel(ctx)
	defer halt()
	s.Out = &closedOutput{w: s.Out, onClose: func() {
		fmt.Fprintln(s.Err, "autobuild: standard output was closed: stopping running phases gracefully; "+
			"resume with: "+commandLine(o, "--resume"))
		halt()
	}}
	print := newPrinter(s.Out)
	p := runctl.Printer{Print: print, Interest: headlessInterest(o, box), QueueLines: 1 << 16}
	root, _ := stateRoot(cfg.Repo)
	if nt := o.notifyConf.notifier(o, root, s.Err, s.Err); nt != nil {
		p.Listeners = append(p.Listeners, nt.Consume)
		defer nt.Close(notifyGrace)
	}
	if box {
		// Plain lines: a phase that runs long and quietly still gets a
		// line every HeartbeatEvery, so a CI job never looks hung.
		hb := &printer.Heartbeat{W: s.Out}
		p.Print = hb.Wrap(print)
		p.Beside = func(ctx context.Context) {
			tick := time.NewTicker(heartbeatEvery())
			defer tick.Stop()
			hb.Run(ctx, tick.C)
		}
	}
	res, err := runctl.Headless(ctx, cfg, p, s.Err)
	if err != nil && res.Status == "" {
		return err
	}
	if box {
		fmt.Fprint(s.Out, "\n"+renderSummary(res.Root, o, terminalWidth(s.Out)))
	}
	if err != nil {
		fmt.Fprintln(s.Err, "autobuild: "+err.Error())
	}
	return &exitError{code: res.ExitCode()}
}

// headlessInterest is what a headless run shows of the agents' and gates'
// output lines: the JSON printer and plain -v print every line; plain lines
// without -v print none, but their heartbeat names each running phase's
// latest line.
func headlessInterest(o *runOptions, box bool) event.OutputInterest {
	if !box || o.verbose {
		return event.OutputAll
	}
	return event.OutputLatest
}

// heartbeatEvery is printer.HeartbeatEvery, or $AUTOBUILD_HEARTBEAT (a Go
// duration such as 10s) when it is set.
func heartbeatEvery() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("AUTOBUILD_HEARTBEAT")); err == nil && d > 0 {
		return d
	}
	return printer.HeartbeatEvery
}

// renderSummary renders the halt or completion summary from the state files.
func renderSummary(root string, o *runOptions, width int) string {
	snap, err := state.Open(root).Snapshot()
	if err != nil || snap.Run == nil {
		return fmt.Sprintf("(could not read the run's state: %v)\n", err)
	}
	return summary.Render(summaryInput(snap, o), width)
}

func summaryInput(snap *state.Snapshot, o *runOptions) summary.Input {
	return summary.Input{Run: snap.Run, Phases: snap.Phases, StateDir: ".autobuild/",
		ResumeCommand: commandLine(o, "--resume"), FreshCommand: freshCommand(o, snap.Run.CommitMode), FixStep: o.fixStep}
}

// commandLine is the command the user ran, with --resume or --fresh in place
// of either, for the resume instructions.
func commandLine(o *runOptions, mode string) string {
	if o != nil && o.commands != nil {
		return o.commands(mode)
	}
	self := programName()
	if o != nil && o.self.words != "" {
		self = o.self
	}
	parts := []string{self.words}
	args := os.Args[1:]
	for i, a := range args {
		switch {
		case secretArg(args, i):
			// The webhook's URL holds its token: never printed.
			continue
		case a == "--resume" || a == "--fresh" || a == "--dry-run":
			continue
		case a == "demo":
			continue
		}
		parts = append(parts, shell.Quote(a))
	}
	if o != nil && o.planPath != "" && !slices.Contains(parts, shell.Quote(o.planPath)) {
		parts = append(parts, shell.Quote(o.planPath))
	}
	return strings.Join(append(parts, mode), " ")
}

// freshCommand is the command line to start over; it names the commit mode
// when the original command took it from run.json.
func freshCommand(o *runOptions, mode state.CommitMode) string {
	line := commandLine(o, "--fresh")
	if !strings.Contains(line, "--commit") {
		line += " --commit=" + string(mode)
	}
	return line
}

func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func terminalWidth(w any) int {
	if f, ok := w.(*os.File); ok {
		if width, _, err := term.GetSize(int(f.Fd())); err == nil && width > 0 {
			return min(width, 100)
		}
	}
	return 80
}
