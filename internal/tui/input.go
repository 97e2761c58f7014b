package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/autobuild-sh/autobuild/internal/shell"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// handleKey routes a key press: ctrl+c always interrupts; a pending
// question or the search input take every other key; then global keys,
// then the keys of the screen and pane in focus.
func (m *Model) handleKey(k tea.KeyPressMsg) tea.Cmd {
	keys := m.keys
	if key.Matches(k, keys.Interrupt) {
		return m.interrupt()
	}
	if m.ask != askNothing {
		return m.answer(k)
	}
	if m.searching {
		return m.searchKey(k)
	}
	m.notice = ""
	switch {
	case key.Matches(k, keys.Help):
		m.fullHelp = !m.fullHelp
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
	case key.Matches(k, keys.Summary) && m.summaryIn != nil:
		m.screen = screenSummary
		return nil
	}
	switch {
	case m.screen == screenSummary && m.summaryIn != nil:
		m.summaryKey(k)
	case len(m.rows) == 0:
	case m.focus == focusDetail:
		return m.detailKey(k)
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
	case key.Matches(k, m.keys.Yes):
		q := m.ask
		m.ask = askNothing
		if q == askFresh {
			return m.startRun(StartFresh)
		}
		return m.interrupt()
	case key.Matches(k, m.keys.No):
		m.ask = askNothing
	}
	return nil
}

// resumeHint is the command line that resumes the run, for read-only mode.
func (m *Model) resumeHint() string {
	if m.opts.ResumeHint != "" {
		return m.withPlan(m.opts.ResumeHint)
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
		m.setNotice("The run is complete: every phase is done, there is nothing to resume.", false)
	case m.readOnly() && m.run.status == state.RunRunning:
		m.setNotice("Read-only: the run is going on in another process.", false)
	case m.readOnly() && m.run.status == "":
		m.setNotice("Read-only, and there is no run yet to resume.", false)
	case m.readOnly():
		m.setNotice("Read-only. To resume, run: "+m.resumeHint(), false)
	case m.canStart():
		return m.startRun(StartResume)
	case m.life.active():
		m.setNotice("The run is still going; r resumes it after it stops.", false)
	}
	return nil
}

func (m *Model) fresh() tea.Cmd {
	switch {
	case m.complete():
		// Starting over would redo every phase on top of their commits:
		// possible, but never by a stray key on the completion screen.
		m.setNotice("The run is complete. To build the plan again from the start, quit and run: "+m.freshHint(), false)
	case m.readOnly() && m.run.status == state.RunRunning:
		m.setNotice("Read-only. To start over, stop the run (ctrl+c where it runs), then run: "+m.freshHint(), false)
	case m.readOnly():
		m.setNotice("Read-only. To start over, run: "+m.freshHint(), false)
	case m.canStart():
		m.ask = askFresh
	case m.life.active():
		m.setNotice("The run is still going; F starts over after it stops.", false)
	}
	return nil
}

// showFailedLog selects the failed phase and focuses its log (`l`).
func (m *Model) showFailedLog() {
	i := m.failedRow()
	if i < 0 {
		m.setNotice("No phase has failed.", false)
		return
	}
	m.selectRow(i)
	m.userMoved = true
	m.screen, m.focus = screenRun, focusDetail
	// Open at the failure report: that is what `l` is for; the log is
	// above it.
	c := m.selectedContent()
	for j, l := range c.extra {
		if l == sectionPrefix+"failure report ──" {
			m.logv.follow, m.logv.top = false, c.log.total+int64(j)
			break
		}
	}
}

func (m *Model) selectRow(i int) {
	i = max(0, min(i, len(m.rows)-1))
	if i != m.sel {
		m.sel = i
		m.logv.reset()
	}
}

func (m *Model) listKey(k tea.KeyPressMsg) tea.Cmd {
	keys := m.keys
	if key.Matches(k, keys.Up, keys.Down, keys.PageUp, keys.PageDown, keys.Top, keys.Bottom) {
		m.userMoved = true
	}
	switch {
	case key.Matches(k, keys.Up):
		m.selectRow(m.sel - 1)
	case key.Matches(k, keys.Down):
		m.selectRow(m.sel + 1)
	case key.Matches(k, keys.PageUp):
		m.selectRow(m.sel - max(1, m.lay.listH-1))
	case key.Matches(k, keys.PageDown):
		m.selectRow(m.sel + max(1, m.lay.listH-1))
	case key.Matches(k, keys.Top):
		m.selectRow(0)
	case key.Matches(k, keys.Bottom):
		m.selectRow(len(m.rows) - 1)
	case key.Matches(k, keys.Focus):
		m.focus = focusDetail
	case key.Matches(k, keys.Search):
		return m.startSearch()
	case key.Matches(k, keys.Next):
		m.logv.next(m.selectedContent(), m.logHeight(), 1)
	case key.Matches(k, keys.Prev):
		m.logv.next(m.selectedContent(), m.logHeight(), -1)
	}
	return nil
}

func (m *Model) detailKey(k tea.KeyPressMsg) tea.Cmd {
	keys := m.keys
	c, h := m.selectedContent(), m.logHeight()
	switch {
	case key.Matches(k, keys.Up):
		m.logv.scroll(c, h, -1)
	case key.Matches(k, keys.Down):
		m.logv.scroll(c, h, 1)
	case key.Matches(k, keys.PageUp):
		m.logv.scroll(c, h, -max(1, h-1))
	case key.Matches(k, keys.PageDown):
		m.logv.scroll(c, h, max(1, h-1))
	case key.Matches(k, keys.Follow):
		m.logv.follow = true
	case key.Matches(k, keys.Top):
		m.logv.home(c)
	case key.Matches(k, keys.Left):
		m.logv.xoff = max(0, m.logv.xoff-8)
	case key.Matches(k, keys.Right):
		m.logv.xoff += 8
	case key.Matches(k, keys.Search):
		return m.startSearch()
	case key.Matches(k, keys.Next):
		m.logv.next(c, h, 1)
	case key.Matches(k, keys.Prev):
		m.logv.next(c, h, -1)
	case k.String() == "esc" && m.logv.query != "":
		m.logv.setQuery("", c, h)
	case key.Matches(k, keys.Back):
		m.focus = focusList
	}
	return nil
}

func (m *Model) summaryKey(k tea.KeyPressMsg) {
	keys, vp := m.keys, &m.summaryVP
	switch {
	case key.Matches(k, keys.Up):
		vp.ScrollUp(1)
	case key.Matches(k, keys.Down):
		vp.ScrollDown(1)
	case key.Matches(k, keys.PageUp):
		vp.PageUp()
	case key.Matches(k, keys.PageDown):
		vp.PageDown()
	case key.Matches(k, keys.Top):
		vp.GotoTop()
	case key.Matches(k, keys.Bottom):
		vp.GotoBottom()
	case key.Matches(k, keys.Left):
		vp.ScrollLeft(8)
	case key.Matches(k, keys.Right):
		vp.ScrollRight(8)
	case key.Matches(k, keys.Back), key.Matches(k, keys.Focus):
		m.screen, m.focus = screenRun, focusList
	}
}

func (m *Model) startSearch() tea.Cmd {
	m.focus, m.searching = focusDetail, true
	m.search.set(m.logv.query)
	return nil
}

func (m *Model) searchKey(k tea.KeyPressMsg) tea.Cmd {
	switch k.String() {
	case "enter":
		m.searching = false
		m.logv.setQuery(m.search.text(), m.selectedContent(), m.logHeight())
		if m.logv.query != "" && m.logv.count == 0 {
			m.setNotice("No match for "+m.logv.query, false)
		}
		return nil
	case "esc":
		m.searching = false
		return nil
	}
	m.search.update(k)
	return nil
}
