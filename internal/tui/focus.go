package tui

import tea "charm.land/bubbletea/v2"

// body is what has the keys: a screen (the phase list, the log pane, the
// summary, the review, the empty screen before any phase) or a prompt
// over it (a y/n dialog, the search, the filter, a note). Its bindings
// are both how it takes keys and its help line; render draws the screen's
// body.
type body struct {
	// name is the body's, for tests and the code that asks what is in
	// focus ("list", "pane", "summary", "review", "empty"; "dialog",
	// "search", "filter", "note").
	name string
	// keys are the body's bindings, made when asked for (a frame only
	// draws): tried in order, the first whose keys match takes the key;
	// the help line offers the shown ones, in the same order.
	keys func() []binding
	// typing takes the keys no binding takes: a prompt edits its text
	// with them. nil for a screen, which ignores them.
	typing func(tea.KeyPressMsg) tea.Cmd
	// render draws the body, for its size (layout).
	render func() []string
	// line is a prompt's last line of the footer; nil for a screen, whose
	// last line is its help line.
	line *promptLine
}

// promptLine is what a prompt shows on the footer's last line: its
// question, or its input with what the input starts with and its keys.
type promptLine struct {
	question     string
	input        *searchInput
	prefix, help string
}

// active is what has the keys and fills the body now: a prompt when one
// is open (over the screen, which it leaves drawn), else the screen. It is
// the one place that decides what is in focus: the keys (handleKey), the
// help line (shortHelp) and the body drawn (render) all come from it.
func (m *Model) active() body {
	s := m.screenBody()
	var p body
	switch {
	case m.dialog != nil:
		p = m.dialogBody()
	case m.pane.searching:
		p = m.searchBody()
	case m.filtering:
		p = m.filterBody()
	case m.note.kind != noteNone:
		p = m.noteBody()
	default:
		return s
	}
	p.render = s.render
	return p
}

// screenBody is the screen that fills the body: a screen of its own (the
// review, the summary), else the run view's part in focus.
func (m *Model) screenBody() body {
	switch {
	case m.onReview():
		return m.reviewBody()
	case m.onSummary():
		return m.summaryBody()
	case len(m.phases.rows) == 0:
		return m.emptyBody()
	case m.focus == focusDetail:
		return m.paneBody()
	default:
		return m.listBody()
	}
}

// emptyBody is the screen before any phase is known: only the run's keys.
func (m *Model) emptyBody() body {
	return body{name: "empty", keys: func() []binding {
		keys := append(m.quitHelp(), m.runControls(false, false)...)
		return append(keys, m.otherRunKeys()...)
	}, render: func() []string { return m.renderEmpty(max(m.width, 20)) }}
}
