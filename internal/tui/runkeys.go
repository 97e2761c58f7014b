package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/autobuild-sh/autobuild/internal/runctl"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// The run's keys work on every screen: each body puts them where its help
// line offers them (runControls, quitHelp) and adds the rest
// (otherRunKeys), so a key of the run acts the same on every screen.

// runControls are l, r and F (r alone, telling how, when read-only) and s.
// The help line offers them where they apply, when show is set;
// onSummary leaves s out of it, where it is.
func (m *Model) runControls(show, onSummary bool) []binding {
	k := m.keys.Run
	// The run stopped, or its first start failed: r and F may start
	// another. A complete run has nothing to resume: r and F explain that
	// when pressed, but are not offered.
	restart := func() bool {
		return show && (m.ended() || (m.life.state == lifeStartFailed && !m.readOnly())) && !m.complete()
	}
	resume := bind(k.Resume, func() tea.Cmd { return m.startRun(runctl.Resume) }).when(m.resumeDisabled).helpIf(restart).
		fullAs("r", "resume after a halt")
	if m.readOnly() {
		resume = act(k.ResumeHint, func() {
			m.footer.setNotice("Read-only. To resume, run: "+m.resumeHint(), false)
		}).when(m.resumeDisabled).helpIf(restart).fullAs("r", "how to resume")
	}
	fresh := act(k.Fresh, func() { m.dialog = m.freshDialog() }).when(m.freshDisabled).helpIf(func() bool {
		return restart() && !m.readOnly()
	})
	summary := act(k.Summary, func() { m.screen = screenSummary }).when(func() *disabledReason {
		if m.summary.shown() {
			return nil
		}
		// Not offered until a run has ended; pressed anyway, it says so
		// rather than doing nothing.
		return because("The summary comes when the run stops; s then returns to it from the phase list.")
	}).helpIf(func() bool {
		return show && !onSummary && m.summary.shown() && (m.ended() || (m.life.state == lifeStartFailed && !m.readOnly()))
	})
	return []binding{m.logBinding(show, onSummary).in(groupRun), resume.in(groupRun),
		fresh.fullAs("F", "start fresh (asks)").in(groupRun), summary.in(groupRun)}
}

// logBinding is `l`: the log of the failed phase. The help line offers it
// unless that log is already in focus.
func (m *Model) logBinding(show, onSummary bool) binding {
	return act(m.keys.Run.Log, m.showFailedLog).when(func() *disabledReason {
		if m.phases.failed() < 0 {
			return because("No phase has failed.")
		}
		return nil
	}).helpIf(func() bool {
		i := m.phases.failed()
		return show && i >= 0 && m.phases.rows[i].status == stFailed && (onSummary || i != m.table.sel || m.focus != focusDetail)
	}).fullAs("l", "log of the failed phase")
}

// quitHelp are q and ?, which every help line offers.
func (m *Model) quitHelp() []binding {
	k := m.keys.Run
	quit := "quit"
	switch {
	case m.haltable() && m.life.halting():
		quit = "quit once the run has stopped"
	case m.haltable():
		quit = "halt the run and quit (asks)"
	}
	return []binding{
		bind(k.Quit, m.quit).help().fullAs("q", quit).in(groupGlobal),
		act(k.Help, func() { m.footer.fullHelp = !m.footer.fullHelp }).help().fullAs("?", "close help").in(groupGlobal),
	}
}

// otherRunKeys are the run's keys a help line does not offer: c (which the
// summary offers itself, copyBinding) and m.
func (m *Model) otherRunKeys() []binding {
	return []binding{m.copyBinding(false), m.mouseBinding()}
}

// mouseBinding is `m`: mouse reporting on or off.
func (m *Model) mouseBinding() binding {
	return act(m.keys.Run.Mouse, m.toggleMouse).fullAs("m", "mouse wheel on/off").in(groupGlobal)
}

// copyBinding is `c`: it copies the fix, then the resume command, once the
// run has halted; show offers it then.
func (m *Model) copyBinding(show bool) binding {
	b := bind(m.keys.Run.Copy, m.copyResume).when(func() *disabledReason {
		switch {
		case m.complete():
			return because("The run is complete: there is no resume command to copy.")
		case !m.ended():
			return because("Nothing to copy yet: c copies the resume command once the run has halted.")
		}
		return nil
	}).helpIf(func() bool { return show && m.ended() && !m.complete() }).fullAs("c", "copy the commands").in(groupRun)
	if m.nextCopyIsFix() {
		b = b.helpAs("c", "copy fix").fullAs("c", "copy the fix, then resume")
	}
	return b
}

// resumeDisabled says why `r` does not resume now.
func (m *Model) resumeDisabled() *disabledReason {
	switch {
	case m.complete():
		return because("The run is complete: every phase is done, there is nothing to resume.")
	case m.readOnly() && m.run.status == state.RunRunning:
		return because("Read-only: the run is going on in another process.")
	case m.readOnly() && m.run.status == "":
		return because("Read-only, and there is no run yet to resume.")
	case m.readOnly():
		return nil // r tells how to resume
	case m.canStart() && m.haltResume != "" && m.haltResume != m.opts.Commands.Resume:
		// The halt's command raises a budget the run has reached: a
		// resume from here keeps the budget and would halt at once.
		return because("The run's budget is reached: a resume here would stop at once. Quit and run: " +
			m.haltResume + " (c copies it)")
	case m.canStart():
		return nil
	case m.life.active():
		return because("The run is still going; r resumes it after it stops.")
	}
	return quietly()
}

// freshDisabled says why `F` does not offer to start over now.
func (m *Model) freshDisabled() *disabledReason {
	switch {
	case m.complete():
		// Starting over would redo every phase on top of their commits:
		// possible, but never by a stray key on the completion screen.
		return because("The run is complete. To build the plan again from the start, quit and run: " + m.freshHint())
	case m.readOnly() && m.run.status == state.RunRunning:
		return because("Read-only. To start over, stop the run (ctrl+c where it runs), then run: " + m.freshHint())
	case m.readOnly():
		return because("Read-only. To start over, run: " + m.freshHint())
	case m.canStart():
		return nil
	case m.life.active():
		return because("The run is still going; F starts over after it stops.")
	}
	return quietly()
}

// quit is `q`: at once without a run to halt, else it asks first; while
// the run halts, the program quits once it has stopped.
func (m *Model) quit() tea.Cmd {
	if !m.haltable() {
		return tea.Quit
	}
	if !m.life.halting() {
		m.dialog = m.quitDialog()
	}
	return nil
}

// haltable reports whether q and ctrl+c have a run to halt: this UI
// drives one that was started and has not reported how it ended. Between
// the run's terminal event (halted, interrupted, complete) and its events
// closing, the engine is done and only its listeners finish (a notifier
// posting the halt): the run is still active for r and F, which wait for
// it, but there is nothing left to halt, so q and ctrl+c quit at once
// (the command waits for the engine before it exits). A run being
// restarted still shows the old run's status: it is haltable.
func (m *Model) haltable() bool {
	if m.readOnly() || !m.life.active() {
		return false
	}
	reported := m.run.status != "" && m.run.status != state.RunRunning
	return !reported || m.life.awaitingStart()
}

// resumeHint is the command line that resumes the run: the halt's, which
// raises a budget the run reached (set for a run this process drives);
// else runctl's.
func (m *Model) resumeHint() string {
	if m.haltResume != "" && !m.opts.Commands.Followed() {
		return m.haltResume
	}
	return m.opts.Commands.ResumeFor(m.run.planPath)
}

// freshHint is the command to start over, for read-only mode and the
// completion screen. In watch mode it names the run's commit mode, which a
// fresh run needs.
func (m *Model) freshHint() string {
	return m.opts.Commands.FreshFor(m.run.planPath, state.CommitMode(m.run.commitMode))
}

// canStart reports whether r or F may start a run now: after a halt or an
// interruption, or when the first start failed; not after a complete run,
// which has nothing left to resume.
func (m *Model) canStart() bool {
	return !m.readOnly() && !m.life.active() && !m.complete() && (m.ended() || m.life.state == lifeStartFailed)
}

// complete reports whether the run shown has completed.
func (m *Model) complete() bool {
	return !m.life.active() && m.run.status == state.RunComplete
}

// showFailedLog selects the failed phase and focuses its log (`l`).
func (m *Model) showFailedLog() {
	i := m.phases.failed()
	if i < 0 {
		return
	}
	m.selectRow(i)
	m.table.userMoved = true
	m.screen, m.focus = screenRun, focusDetail
	// Open at the failure report: that is what `l` is for; the log is
	// above it.
	m.syncViews()
	c := m.pane.content()
	for j, l := range c.extra {
		if l == sectionPrefix+"failure report ──" {
			m.pane.view.follow, m.pane.view.top = false, c.log.total+int64(j)
			break
		}
	}
}
