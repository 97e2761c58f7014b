package tui

import "strings"

// headerHeight is the header's fixed height: title line and progress line.
const headerHeight = 2

// sideBySideWidth is the width from which the list and the detail pane sit
// side by side instead of one above the other. Below it the list, at about
// half the width, would lose its agent column and most of each phase's last
// output line.
const sideBySideWidth = 140

// layout is the geometry of the current screen, recomputed after every
// Update; the views get their sizes from it.
type layout struct {
	bodyH int
	// side is true when list and detail pane are side by side.
	side   bool
	footer []string
}

// relayout recomputes the geometry for the current size and mode and sizes
// the views.
func (m *Model) relayout() {
	w, h := max(m.width, 20), max(m.height, 6)
	m.syncViews()
	m.syncFooter()
	m.header.SetSize(w)
	m.footer.SetSize(w)
	// The `?` help leaves the body a few lines: its reasons are cut first.
	m.footer.helpRoom = max(1, h-headerHeight-1-3)
	status := m.footer.statusLines()
	// The footer is the status lines and the last line (one line).
	m.lay.bodyH = max(1, h-headerHeight-len(status)-1)
	body := m.lay.bodyH

	m.lay.side = w >= sideBySideWidth
	if m.lay.side {
		listW := min(max(w*45/100, 50), 90)
		m.table.SetSize(listW, body)
		m.pane.SetSize(w-listW-1, body)
	} else {
		items := len(m.table.items())
		// The list takes what it needs, up to about half the body: the
		// detail pane keeps at least ten lines when there is room.
		listH := max(min(items, max(body/2, body-10)), min(3, body))
		m.table.SetSize(w, listH)
		m.pane.SetSize(w, body-listH)
	}
	m.summary.SetSize(w, body)
	m.rv.SetSize(w, body)
	// The help line tells how far the summary is scrolled, which is known
	// only now that the summary has its size: it is rendered last.
	m.footer.scroll = ""
	if m.onSummary() {
		m.footer.scroll = m.summary.scrollLabel()
	}
	m.lay.footer = append(status, m.footer.lastLine())
}

// onSummary reports whether the summary fills the body.
func (m *Model) onSummary() bool { return m.screen == screenSummary && m.summary.shown() }

// render draws the whole screen, exactly height lines.
func (m *Model) render() string {
	h := max(m.height, 6)
	m.syncViews()
	lines := make([]string, 0, h)
	lines = append(lines, m.header.Render()...)
	body := m.active().render()
	for len(body) < m.lay.bodyH {
		body = append(body, "")
	}
	lines = append(lines, body[:m.lay.bodyH]...)
	lines = append(lines, m.lay.footer...)
	if len(lines) > h {
		lines = lines[:h]
	}
	return strings.Join(lines, "\n")
}

// renderSide draws the list and the detail pane side by side.
func (m *Model) renderSide() []string {
	list, detail := m.table.Render(), m.pane.Render()
	sep := m.styles.Dim.Render("│")
	out := make([]string, m.lay.bodyH)
	for i := range out {
		l, d := "", ""
		if i < len(list) {
			l = list[i]
		}
		if i < len(detail) {
			d = detail[i]
		}
		out[i] = padRight(l, m.table.width) + sep + d
	}
	return out
}

// renderEmpty is the body before any phase is known: a watch waiting for a
// run, or a live run that has not reported its plan yet.
func (m *Model) renderEmpty(w int) []string {
	var msg []string
	switch {
	case m.opts.Watch != nil && m.run.status == "":
		dir := m.opts.Dir
		if dir == "" {
			dir = "."
		}
		msg = []string{"Waiting for a run in " + dir + " …",
			"It appears here as soon as `autobuild PLAN.md` starts there (with or without --no-tui)."}
	case m.life.state == lifeStartFailed:
		msg = []string{"The run did not start: " + m.life.err.Error()}
	default:
		msg = []string{"Starting…"}
	}
	out := []string{""}
	for _, l := range msg {
		for _, wl := range wrapWords(l, w-2, 4) {
			out = append(out, "  "+wl)
		}
	}
	return out
}
