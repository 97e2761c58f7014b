package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/autobuild-sh/autobuild/internal/runctl"
	"github.com/autobuild-sh/autobuild/internal/shell"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// handleKey routes a key press to the keymap of what has the keys: ctrl+c
// always interrupts; a pending question or the search prompt take every
// other key; then the keys valid on every screen, then those of the screen
// and pane in focus.
func (m *Model) handleKey(k tea.KeyPressMsg) tea.Cmd {
	keys := m.keys.Run
	if key.Matches(k, keys.Interrupt) {
		return m.interrupt()
	}
	if m.ask != askNothing {
		return m.answer(k)
	}
	if m.pane.searching {
		m.searchKey(k)
		return nil
	}
	if m.filtering {
		m.filterKey(k)
		return nil
	}
	if m.note.kind != noteNone {
		return m.noteKey(k)
	}
	m.footer.notice = ""
	switch {
	case key.Matches(k, keys.Help):
		m.footer.fullHelp = !m.footer.fullHelp
		return nil
	case key.Matches(k, keys.Quit):
		return m.quit()
	case key.Matches(k, keys.Resume):
		return m.resume()
	case key.Matches(k, keys.Fresh):
		return m.fresh()
	case key.Matches(k, keys.Log):
		m.showFailedLog()
		return nil
	case key.Matches(k, keys.Copy):
		return m.copyResume()
	case key.Matches(k, keys.Mouse):
		m.toggleMouse()
		return nil
	case key.Matches(k, keys.Summary) && m.summary.shown():
		m.screen = screenSummary
		return nil
	case key.Matches(k, keys.Summary):
		// Not offered until a run has ended; pressed anyway, it says so
		// rather than doing nothing.
		m.footer.setNotice("The summary comes when the run stops; s then returns to it from the phase list.", false)
		return nil
	}
	switch {
	case m.onReview():
		return m.reviewKey(k)
	case m.onSummary():
		m.summaryKey(k)
	case len(m.phases.rows) == 0:
	case m.focus == focusDetail:
		m.paneKey(k)
	default:
		return m.listKey(k)
	}
	return nil
}

// interrupt is ctrl+c, and `q` confirmed: ask the run to halt gracefully
// (a second time: kill) and quit once it has ended. Without a run it quits.
func (m *Model) interrupt() tea.Cmd {
	m.ask = askNothing
	if m.readOnly() || !m.life.active() {
		return tea.Quit
	}
	m.life.on(lifeInterrupt)
	m.life.interrupts++
	// Sent at once even while r or F is starting the run: the controller
	// gives it to the run being started, which may be slow to start (a
	// resume replaying its line, a fresh start removing worktrees).
	return interruptCmd(m.opts.Controller)
}

func (m *Model) quit() tea.Cmd {
	if m.readOnly() || !m.life.active() {
		return tea.Quit
	}
	if !m.life.halting() {
		m.ask = askQuit
	}
	return nil
}

func (m *Model) answer(k tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(k, m.keys.Confirm.Yes):
		q := m.ask
		m.ask = askNothing
		if q == askFresh {
			return m.startRun(runctl.Fresh)
		}
		return m.interrupt()
	case key.Matches(k, m.keys.Confirm.No):
		m.ask = askNothing
	}
	return nil
}

// resumeHint is the command line that resumes the run, for read-only mode.
func (m *Model) resumeHint() string {
	if m.opts.ResumeHint != "" {
		return m.withPlan(m.opts.ResumeHint)
	}
	if m.haltResume != "" {
		return m.haltResume
	}
	if m.opts.ResumeCommand != "" {
		return m.opts.ResumeCommand
	}
	return m.withPlan("autobuild PLAN.md --resume")
}

// freshHint is the command to start over, for read-only mode and the
// completion screen. In watch mode it names the run's commit mode, which a
// fresh run needs.
func (m *Model) freshHint() string {
	hint := m.opts.FreshCommand
	if hint == "" {
		hint = "autobuild PLAN.md --fresh"
	}
	if strings.Contains(hint, "PLAN.md") && m.run.commitMode != "" && !strings.Contains(hint, "--commit") {
		hint += " --commit=" + m.run.commitMode
	}
	return m.withPlan(hint)
}

// withPlan puts the run's plan path (from run.json, in watch mode) in place
// of the PLAN.md placeholder of a hint. No --agent is needed: a resume runs
// the agents run.json records.
func (m *Model) withPlan(hint string) string {
	if m.run.planPath == "" {
		return hint
	}
	return strings.ReplaceAll(hint, "PLAN.md", shell.Quote(m.run.planPath))
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

func (m *Model) resume() tea.Cmd {
	switch {
	case m.complete():
		m.footer.setNotice("The run is complete: every phase is done, there is nothing to resume.", false)
	case m.readOnly() && m.run.status == state.RunRunning:
		m.footer.setNotice("Read-only: the run is going on in another process.", false)
	case m.readOnly() && m.run.status == "":
		m.footer.setNotice("Read-only, and there is no run yet to resume.", false)
	case m.readOnly():
		m.footer.setNotice("Read-only. To resume, run: "+m.resumeHint(), false)
	case m.canStart() && m.haltResume != "" && m.haltResume != m.opts.ResumeCommand:
		// The halt's command raises a budget the run has reached: a
		// resume from here keeps the budget and would halt at once.
		m.footer.setNotice("The run's budget is reached: a resume here would stop at once. Quit and run: "+
			m.haltResume+" (c copies it)", false)
	case m.canStart():
		return m.startRun(runctl.Resume)
	case m.life.active():
		m.footer.setNotice("The run is still going; r resumes it after it stops.", false)
	}
	return nil
}

func (m *Model) fresh() tea.Cmd {
	switch {
	case m.complete():
		// Starting over would redo every phase on top of their commits:
		// possible, but never by a stray key on the completion screen.
		m.footer.setNotice("The run is complete. To build the plan again from the start, quit and run: "+m.freshHint(), false)
	case m.readOnly() && m.run.status == state.RunRunning:
		m.footer.setNotice("Read-only. To start over, stop the run (ctrl+c where it runs), then run: "+m.freshHint(), false)
	case m.readOnly():
		m.footer.setNotice("Read-only. To start over, run: "+m.freshHint(), false)
	case m.canStart():
		m.ask = askFresh
	case m.life.active():
		m.footer.setNotice("The run is still going; F starts over after it stops.", false)
	}
	return nil
}

// showFailedLog selects the failed phase and focuses its log (`l`).
func (m *Model) showFailedLog() {
	i := m.phases.failed()
	if i < 0 {
		m.footer.setNotice("No phase has failed.", false)
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

// listKey is a key of the phase list.
func (m *Model) listKey(k tea.KeyPressMsg) tea.Cmd {
	keys, t := m.keys.List, &m.table
	if key.Matches(k, keys.Up, keys.Down, keys.PageUp, keys.PageDown, keys.Top, keys.Bottom) {
		t.userMoved = true
	}
	// The moves walk the rows the filter shows.
	move := func(delta int) {
		if t.move(delta) {
			m.pane.view.reset()
		}
	}
	switch {
	case key.Matches(k, keys.Up):
		move(-1)
	case key.Matches(k, keys.Down):
		move(1)
	case key.Matches(k, keys.PageUp):
		move(-max(1, t.height-1))
	case key.Matches(k, keys.PageDown):
		move(max(1, t.height-1))
	case key.Matches(k, keys.Top):
		move(-len(m.phases.rows))
	case key.Matches(k, keys.Bottom):
		move(len(m.phases.rows))
	case key.Matches(k, keys.Focus):
		m.focus = focusDetail
	case key.Matches(k, keys.Clear) && m.clearFilter():
	case key.Matches(k, keys.Search):
		m.startFilter()
	case key.Matches(k, keys.Review):
		return m.openReview()
	case key.Matches(k, keys.Steer):
		m.askSteer()
	case key.Matches(k, keys.Next):
		m.pane.view.next(m.pane.content(), m.pane.logHeight(), 1)
	case key.Matches(k, keys.Prev):
		m.pane.view.next(m.pane.content(), m.pane.logHeight(), -1)
	}
	return nil
}

// paneKey is a key of the detail pane: it scrolls and searches the log;
// Back returns to the list.
func (m *Model) paneKey(k tea.KeyPressMsg) {
	if m.pane.key(k, m.keys.Pane) {
		return
	}
	switch {
	case key.Matches(k, m.keys.Pane.Search):
		m.startSearch()
	case key.Matches(k, m.keys.Pane.Back):
		m.focus = focusList
	}
}

// summaryKey is a key of the summary: it scrolls; Back returns to the
// phase list.
func (m *Model) summaryKey(k tea.KeyPressMsg) {
	if m.summary.scroll(k, m.keys.Summary) {
		return
	}
	switch {
	case key.Matches(k, m.keys.Pane.Clear) && m.summary.vp.XOffset() > 0:
		m.summary.vp.SetXOffset(0) // esc undoes a sideways scroll first
	case key.Matches(k, m.keys.Summary.Back):
		m.screen, m.focus = screenRun, focusList
	}
}

func (m *Model) startSearch() {
	// A new search starts empty, as in less and vim: the previous query
	// stays on n and N until it is replaced.
	m.focus, m.pane.searching = focusDetail, true
	m.pane.search.set("")
}

// searchKey is a key of the search prompt: enter searches, esc cancels,
// any other edits the query.
func (m *Model) searchKey(k tea.KeyPressMsg) {
	p := &m.pane
	switch {
	case key.Matches(k, m.keys.Search.Submit):
		p.searching = false
		m.syncViews()
		p.view.setQuery(p.search.text(), p.content(), p.logHeight())
		if p.view.query != "" && p.view.count == 0 {
			m.footer.setNotice("No match for "+p.view.query, false)
		}
	case key.Matches(k, m.keys.Search.Cancel):
		p.searching = false
	default:
		p.search.update(k)
	}
}
