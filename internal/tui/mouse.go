package tui

import tea "charm.land/bubbletea/v2"

// wheelLines is how far one notch of the mouse wheel scrolls.
const wheelLines = 3

// The mouse: with reporting on (Options.Mouse, toggled by `m`), the wheel
// scrolls what is under the pointer: the summary, the log pane, or the
// phase list (which moves the selection). A terminal that reports the mouse
// keeps its own selection on shift+drag (most do: xterm, GNOME Terminal,
// Konsole, kitty, WezTerm, Windows Terminal; iTerm2 with option+drag), and
// `m` hands the mouse back to the terminal altogether.

// wheel handles a wheel notch at the pointer.
func (m *Model) wheel(msg tea.MouseWheelMsg) {
	var n int
	switch msg.Button {
	case tea.MouseWheelUp:
		n = -wheelLines
	case tea.MouseWheelDown:
		n = wheelLines
	default:
		return
	}
	body := msg.Y - headerHeight
	if body < 0 || body >= m.lay.bodyH {
		return // the header or the footer
	}
	switch {
	case m.onSummary():
		if n < 0 {
			m.summary.vp.ScrollUp(-n)
		} else {
			m.summary.vp.ScrollDown(n)
		}
	case len(m.phases.rows) == 0:
	case m.overList(msg.X, body):
		m.table.userMoved = true
		if n < 0 {
			m.selectRow(m.table.sel - 1)
		} else {
			m.selectRow(m.table.sel + 1)
		}
	default:
		m.syncViews()
		m.pane.view.scroll(m.pane.content(), m.pane.logHeight(), n)
	}
}

// overList reports whether the body cell (x, y) is in the phase list.
func (m *Model) overList(x, y int) bool {
	if m.lay.side {
		return x < m.table.width
	}
	return y < m.table.height
}

// toggleMouse is `m`: mouse reporting on or off.
func (m *Model) toggleMouse() {
	m.mouse = !m.mouse
	if m.mouse {
		m.footer.setNotice("Mouse on: the wheel scrolls; shift+drag selects text in most terminals (m: off).", false)
	} else {
		m.footer.setNotice("Mouse off: the terminal selects text as usual; the wheel no longer scrolls here (m: on).", false)
	}
}
