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
// Update so the views only read it.
type layout struct {
	bodyH int
	// side is true when list and detail pane are side by side.
	side           bool
	listW, listH   int
	detailW        int
	detailH        int // including the pane's title bar
	footer         []string
	summaryWidth   int // the width the summary text was rendered for
	summaryPercent int
}

// relayout recomputes the geometry for the current size and mode.
func (m *Model) relayout() {
	w, h := max(m.width, 20), max(m.height, 6)
	m.help.SetWidth(w)
	status := m.footerLines(w)
	// The footer is the status lines and the last line (one line).
	m.lay.bodyH = max(1, h-headerHeight-len(status)-1)
	body := m.lay.bodyH

	m.lay.side = w >= sideBySideWidth
	if m.lay.side {
		m.lay.listW = min(max(w*45/100, 50), 90)
		m.lay.detailW = w - m.lay.listW - 1
		m.lay.listH, m.lay.detailH = body, body
	} else {
		m.lay.listW, m.lay.detailW = w, w
		items := len(m.listItems())
		// The list takes what it needs, up to about half the body: the
		// detail pane keeps at least ten lines when there is room.
		m.lay.listH = max(min(items, max(body/2, body-10)), min(3, body))
		m.lay.detailH = body - m.lay.listH
	}
	m.ensureListVisible()

	m.summaryVP.SetWidth(w)
	m.summaryVP.SetHeight(body)
	if sw := min(w, 100); m.summaryIn != nil && sw != m.lay.summaryWidth {
		m.renderSummary()
	}
	// A taller body (a notice gone, a resize) must not leave the summary
	// scrolled past its end, showing blank lines.
	m.summaryVP.SetYOffset(m.summaryVP.YOffset())
	// The help line tells how far the summary is scrolled, which is known
	// only now that the viewport has its size: it is rendered last.
	m.lay.footer = append(status, m.lastLine(w))
}

// logHeight is the number of log lines the detail pane shows.
func (m *Model) logHeight() int { return max(1, m.lay.detailH-1) }

// render draws the whole screen, exactly height lines.
func (m *Model) render() string {
	w, h := max(m.width, 20), max(m.height, 6)
	lines := make([]string, 0, h)
	lines = append(lines, m.renderHeader(w)...)
	var body []string
	switch {
	case m.screen == screenSummary && m.summaryIn != nil:
		body = strings.Split(m.summaryVP.View(), "\n")
	case len(m.rows) == 0:
		body = m.renderEmpty(w)
	case m.lay.side:
		body = m.renderSide()
	default:
		body = append(m.renderList(m.lay.listW, m.lay.listH), m.renderDetail(m.lay.detailW, m.lay.detailH)...)
	}
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
	list := m.renderList(m.lay.listW, m.lay.listH)
	detail := m.renderDetail(m.lay.detailW, m.lay.detailH)
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
		out[i] = padRight(l, m.lay.listW) + sep + d
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
