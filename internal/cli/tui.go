package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/autobuild-sh/autobuild/internal/engine"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/printer"
	"github.com/autobuild-sh/autobuild/internal/shell"
	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/tui"
)

// runTUI runs the plan under the terminal UI. The first run starts before
// the UI does, so a run the engine refuses (a lock, a changed plan, a missing
// commit mode) is reported on the terminal like in plain mode, not inside a
// screen that would vanish with it.
//
// The UI needs the keyboard too: with stdin not a terminal (/dev/null,
// nohup, a pipe) no key could reach it, and nothing could quit it after the
// run, so the run prints plain lines as with --no-tui.
func runTUI(ctx context.Context, s Streams, o *runOptions, cfg engine.Config) error {
	if !isTerminal(s.In) {
		p := &printer.Plain{W: s.Out, Verbose: o.verbose}
		return runHeadless(ctx, s, o, cfg, p.Print, true)
	}
	ctrl := &engineController{base: cfg}
	events, err := ctrl.Start(ctx, tui.StartNew)
	if err != nil {
		return err
	}
	ctrl.pending = events

	agentName := ""
	if len(cfg.Agents) > 0 {
		agentName = cfg.Agents[0].Name
	}
	m := tui.New(tui.Options{
		Title: cfg.Plan.Title, PlanPath: cfg.Plan.Path, CommitMode: string(cmp.Or(cfg.CommitMode, o.runMode)), Agent: agentName,
		Schedule: string(o.runSchedule),
		Batches:  tui.BatchesFromPlan(cfg.Plan.Batches()), Controller: ctrl, Context: ctx,
		ResumeCommand: commandLine(o, "--resume"), FreshCommand: freshCommand(o, cmp.Or(cfg.CommitMode, o.runMode)), FixStep: o.fixStep,
		StateDir: ".autobuild/", NoColor: os.Getenv("NO_COLOR") != "", Notice: startNotice(cfg.Plan, o.identityNote),
	})
	prog := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(s.In), tea.WithOutput(s.Out))
	// Ctrl-C reaches the model as a key press (raw mode); a SIGTERM from
	// outside goes to the engine directly, as in plain mode. Bubble Tea
	// itself ends the UI on SIGTERM (a QuitMsg), halt screen included; a
	// second Quit here would race it and can hang its shutdown.
	sigCtx, hardStop, stop := interrupts(ctx, s)
	uiDone := make(chan struct{})
	defer func() {
		close(uiDone)
		stop()
	}()
	go func() {
		select {
		case <-sigCtx.Done():
			ctrl.signalled()
		case <-uiDone:
			return
		}
		select {
		case <-hardStop: // a second signal
			ctrl.signalled()
		case <-uiDone:
		}
	}()
	if _, err := prog.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		ctrl.cancelRun()
		ctrl.wait()
		return fmt.Errorf("terminal UI: %w", err)
	}
	// Quitting the UI mid-run interrupts it (after a confirmation in the
	// UI); wait for the engine to write its state before exiting.
	ctrl.cancelRun()
	res, runErr := ctrl.wait()
	if runErr != nil && res.Status == "" {
		return runErr
	}
	if res.Status == "" {
		res.Status = m.Result().Status
	}
	// The UI's screen is gone with it: leave the summary on the terminal.
	fmt.Fprint(s.Out, renderSummary(res.Root, o, terminalWidth(s.Out)))
	return &exitError{code: res.ExitCode()}
}

// engineController runs the engine for the TUI: one run at a time, each
// started by the model (first run, `r` resume, `F` fresh).
type engineController struct {
	base engine.Config
	// run is engine.Run (when nil); tests put a stand-in there.
	run func(context.Context, engine.Config) (engine.Result, error)
	// pending is the event stream of the run started before the UI, handed
	// to the model's first Start.
	pending <-chan event.Event

	mu   sync.Mutex
	root string
	// cancel and hard stop the latest run; interrupts counts the
	// interrupts it was sent.
	cancel     context.CancelFunc
	hard       chan struct{}
	interrupts int
	// live is set from the moment Start has the run's context until the
	// engine returns: an interrupt then goes to that run, even while it is
	// still starting (taking the lock, checking the tree, removing the
	// worktrees of --fresh, replaying a resumed line).
	live bool
	// early counts interrupts sent by the model while no run was live: its
	// Start is on its way (the model interrupts only a run it started), and
	// they go to that run as soon as Start creates it.
	early int
	done  chan struct{}
	res   engine.Result
	err   error
}

// Start begins a run and returns its events once the engine has accepted
// it (its first event), or the engine's refusal. The run can be
// interrupted from the moment Start is called, before the engine accepts
// it: an interrupt then stops the start (the engine reports the run as
// interrupted before any phase started).
func (c *engineController) Start(ctx context.Context, mode tui.StartMode) (<-chan event.Event, error) {
	c.mu.Lock()
	if c.pending != nil && mode == tui.StartNew {
		ch := c.pending
		c.pending = nil
		c.mu.Unlock()
		return ch, nil
	}
	c.mu.Unlock()
	c.wait() // the model starts a run only after the last one ended

	cfg := c.base
	switch mode {
	case tui.StartResume:
		cfg.Resume, cfg.Fresh = true, false
	case tui.StartFresh:
		cfg.Resume, cfg.Fresh = false, true
	}
	bus := event.NewBus()
	// The UI keeps DefaultLogLines lines a phase: a queue of more than
	// twice that behind a flood only holds lines it would throw away (and
	// at 1<<16 it was half of the UI's memory).
	sub := bus.Subscribe(2 * tui.DefaultLogLines)
	cfg.Sink = bus
	runCtx, cancel := context.WithCancel(ctx)
	hard := make(chan struct{})
	cfg.HardStop = hard
	done := make(chan struct{})

	c.mu.Lock()
	c.cancel, c.hard, c.interrupts, c.done, c.live = cancel, hard, 0, done, true
	c.res, c.err = engine.Result{}, nil
	for ; c.early > 0; c.early-- {
		c.interruptLocked()
	}
	run := c.run
	c.mu.Unlock()
	if run == nil {
		run = engine.Run
	}

	out := make(chan event.Event, 256)
	first := make(chan struct{})
	go func() {
		defer close(out)
		var once sync.Once
		for e := range sub.C {
			once.Do(func() { close(first) })
			out <- e
		}
	}()
	go func() {
		res, err := run(runCtx, cfg)
		c.mu.Lock()
		c.res, c.err, c.live = res, err, false
		if res.Root != "" {
			c.root = res.Root
		}
		c.mu.Unlock()
		bus.Close()
		cancel()
		close(done)
	}()
	select {
	case <-first:
		return out, nil
	case <-done:
		c.mu.Lock()
		res, err := c.res, c.err
		c.mu.Unlock()
		if err != nil && res.Status == "" {
			go func() {
				for range out {
				}
			}()
			return nil, err
		}
		return out, nil
	}
}

// cancelRun asks a run still going for a graceful halt, without counting
// as an interrupt (a run the user already interrupted is not killed).
func (c *engineController) cancelRun() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cancel != nil {
		c.cancel()
	}
}

// wait blocks until the current run (if any) has ended.
func (c *engineController) wait() (engine.Result, error) {
	c.mu.Lock()
	done := c.done
	c.mu.Unlock()
	if done != nil {
		<-done
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.res, c.err
}

// Interrupt asks for a graceful halt; a second call kills the phases. It
// reaches a run still starting too. With no run live, the model's Start is
// on its way (r or F was just pressed): the interrupt is kept for the run
// that Start creates, rather than spent on the run before it, which has
// ended.
func (c *engineController) Interrupt() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.live {
		c.early++
		return
	}
	c.interruptLocked()
}

// signalled passes on a SIGINT or SIGTERM from outside to the run that is
// live, if any. Unlike the model's interrupts, one arriving between runs
// is not kept for the next: it was not about a run started after it (the
// UI quits on it instead).
func (c *engineController) signalled() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.live {
		c.interruptLocked()
	}
}

// interruptLocked is one more interrupt of the live run: the first cancels
// its context (a graceful halt, or a start stopped), the second closes its
// hard stop. c.mu is held.
func (c *engineController) interruptLocked() {
	c.interrupts++
	switch c.interrupts {
	case 1:
		c.cancel()
	case 2:
		close(c.hard)
	}
}

// Snapshot reads the state files of the run's repository.
func (c *engineController) Snapshot() (*state.Snapshot, error) {
	c.mu.Lock()
	root := c.root
	c.mu.Unlock()
	if root == "" {
		r, err := findRoot(c.base.Dir)
		if err != nil {
			return nil, err
		}
		root = r
	}
	return state.Open(root).Snapshot()
}

// startNotice is the first screen's notice: the identity warning, which
// matters most, else the plan's warnings.
func startNotice(pl *plan.Plan, identityNote string) string {
	if identityNote != "" {
		return "Warning: " + identityNote
	}
	return planNotice(pl)
}

// planNotice sums up the plan's warnings for the UI's first screen: they
// were printed before the UI started, and its screen would hide them.
func planNotice(pl *plan.Plan) string {
	switch n := len(pl.Warnings); n {
	case 0:
		return ""
	case 1:
		return "Plan warning: " + pl.Warnings[0].String()
	default:
		return fmt.Sprintf("%d plan warnings (autobuild validate %s lists them); first: %s", n, shell.Quote(pl.Path), pl.Warnings[0].String())
	}
}
