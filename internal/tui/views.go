package tui

// syncViews gives the header, the phase table and the log pane what they
// show from the model's state. It only copies values and pointers: the
// views render from them, and the model stays the one owner of the run's
// data.
func (m *Model) syncViews() {
	now := m.now()

	title := m.run.title
	if title == "" {
		title = m.opts.PlanPath
	}
	m.header.title, m.header.now = title, now
	m.header.state, m.header.stateStyle = m.runState()

	m.table.now, m.table.frame = now, m.frame
	m.rv.now = now

	m.pane.row, m.pane.now = m.table.selected(), now
	// The pane's title bar is highlighted while it has the keys (a
	// search prompt over it included).
	m.pane.focused = m.screenBody().name == "pane"
}

// syncFooter gives the footer what it shows. The footer is laid out once
// per Update (relayout), not per frame: nothing in it moves with the clock.
func (m *Model) syncFooter() {
	f := &m.footer
	f.stateErr, f.watchStopped = m.watchErr, m.watchClosed
	f.halting = 0
	if m.life.halting() {
		f.halting = m.life.interrupts
	}
	// A prompt takes the last line: the question, or its input.
	var p promptLine
	if b := m.active(); b.line != nil {
		p = *b.line
	}
	f.question, f.search, f.searchHelp, f.searchPrompt = p.question, p.input, p.help, p.prefix
	f.short, f.full = m.shortHelp(), fullHelpView{}
	if f.fullHelp {
		f.full = m.fullHelp()
	}
}
