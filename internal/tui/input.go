package tui

import tea "charm.land/bubbletea/v2"

// handleKey gives a key press to what has the keys (active): ctrl+c
// always interrupts; a prompt (a dialog, the search, the filter, a note)
// takes every other key, editing its text with those no binding takes; a
// screen takes its own and the run's keys.
func (m *Model) handleKey(k tea.KeyPressMsg) tea.Cmd {
	if cmd, ok := m.press(m.globalKeys(), k); ok {
		return cmd
	}
	b := m.active()
	if b.typing != nil {
		if cmd, ok := m.press(b.keys(), k); ok {
			return cmd
		}
		return b.typing(k)
	}
	m.footer.notice = ""
	cmd, _ := m.press(b.keys(), k)
	return cmd
}

// interrupt is ctrl+c, and `q` confirmed: ask the run to halt gracefully
// (a second time: kill) and quit once it has ended. Without a run to halt
// (none, or it has reported its end) it quits.
func (m *Model) interrupt() tea.Cmd {
	m.dialog = nil
	if !m.haltable() {
		return tea.Quit
	}
	m.life.on(lifeInterrupt)
	m.life.interrupts++
	// Sent at once even while r or F is starting the run: the controller
	// gives it to the run being started, which may be slow to start (a
	// resume replaying its line, a fresh start removing worktrees).
	return interruptCmd(m.opts.Controller)
}

func (m *Model) startSearch() {
	// A new search starts empty, as in less and vim: the previous query
	// stays on n and N until it is replaced.
	m.focus, m.pane.searching = focusDetail, true
	m.pane.search.set("")
}

// searchBody is the search prompt of the log pane: enter searches, esc
// cancels, any other key edits the query.
func (m *Model) searchBody() body {
	k, p := m.keys.Search, &m.pane
	return body{name: "search", keys: func() []binding {
		return []binding{
			act(k.Submit, func() {
				p.searching = false
				m.syncViews()
				p.view.setQuery(p.search.text(), p.content(), p.logHeight())
				if p.view.query != "" && p.view.count == 0 {
					m.footer.setNotice("No match for "+p.view.query, false)
				}
			}),
			act(k.Cancel, func() { p.searching = false }),
		}
	}, typing: func(key tea.KeyPressMsg) tea.Cmd {
		p.search.update(key)
		return nil
	}, line: &promptLine{input: &p.search, help: k.help()}}
}
