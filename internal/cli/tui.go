package cli

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/autobuild-sh/autobuild/internal/engine"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/runctl"
	"github.com/autobuild-sh/autobuild/internal/shell"
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
		return runHeadless(ctx, s, o, cfg, plainPrinter(o.verbose), true)
	}
	var listeners []runctl.Listener
	root, _ := stateRoot(cfg.Repo)
	// A delivery that failed for good is said once the UI has gone (a
	// line would break its screen): after the summary, as in plain mode.
	var undelivered bytes.Buffer
	if nt := o.notifyConf.notifier(o, root, s.Err, &undelivered); nt != nil {
		listeners = append(listeners, nt.Consume)
		defer func() {
			nt.Close(notifyGrace) // its goroutines have ended: the buffer is ours
			_, _ = undelivered.WriteTo(s.Err)
		}()
	}
	ctrl := runctl.NewController(runctl.Options{Config: cfg, Root: findRoot, Listeners: listeners,
		// The UI keeps DefaultLogLines lines a phase: a queue of more than
		// twice that behind a flood only holds lines it would throw away
		// (and at 1<<16 it was half of the UI's memory).
		QueueLines: 2 * tui.DefaultLogLines})
	if err := ctrl.Begin(ctx); err != nil {
		return err
	}

	// Every agent, in --agent order: the header names them all.
	names := make([]string, len(cfg.Agents))
	for i, a := range cfg.Agents {
		names[i] = a.Name
	}
	agentName := strings.Join(names, ", ")
	m := tui.New(tui.Options{
		Title: cfg.Plan.Title, PlanPath: cfg.Plan.Path, CommitMode: string(cmp.Or(cfg.CommitMode, o.runMode)), Agent: agentName,
		Schedule: string(o.runSchedule),
		Batches:  tui.BatchesFromPlan(cfg.Plan.Batches()), Controller: ctrl, Context: ctx,
		Commands: runctl.Commands{Resume: commandLine(o, "--resume"), Fresh: freshCommand(o, cmp.Or(cfg.CommitMode, o.runMode))},
		FixStep:  o.fixStep,
		StateDir: ".autobuild/", Root: root, NoColor: os.Getenv("NO_COLOR") != "", Notice: startNotice(cfg.Plan, cmp.Or(o.identityNote, o.copyNote)),
		Alert:     o.notifyConf.alert(),
		ColorFGBG: os.Getenv("COLORFGBG"), FixCommand: o.fixCommand, ExitOnComplete: o.exitOnComplete, Mouse: true,
	})
	prog := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(s.In), tea.WithOutput(s.Out))
	// Ctrl-C reaches the model as a key press (raw mode); a SIGTERM from
	// outside goes to the engine directly, as in plain mode. Bubble Tea
	// itself ends the UI on SIGTERM (a QuitMsg), halt screen included; a
	// second Quit here would race it and can hang its shutdown.
	sigCtx, hardStop, stopSignals := runctl.Interrupts(ctx, s.Err)
	stopForwarding := ctrl.ForwardSignals(sigCtx, hardStop)
	// Bubble Tea does not end on SIGHUP: with the terminal gone no key
	// can quit it, and the process stayed for good on every screen.
	stopHangup := endOnHangup(prog)
	defer func() {
		stopHangup()
		stopForwarding()
		stopSignals()
	}()
	if _, err := prog.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		ctrl.Cancel()
		ctrl.Wait()
		return fmt.Errorf("terminal UI: %w", err)
	}
	// Quitting the UI mid-run interrupts it (after a confirmation in the
	// UI); wait for the engine to write its state before exiting.
	ctrl.Cancel()
	res, runErr := ctrl.Wait()
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
