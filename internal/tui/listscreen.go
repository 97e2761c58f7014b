package tui

import "charm.land/bubbles/v2/key"

// listBody is the run view with the phase list in focus: the keys move
// the selection (over the rows the filter shows), enter goes to the log,
// v and M act on the selected phase. Wide, the list and the log pane sit
// side by side; narrow, one above the other.
func (m *Model) listBody() body {
	return body{name: "list", keys: m.listBindings, render: m.renderRunView}
}

func (m *Model) listBindings() []binding {
	k, t := m.keys.List, &m.table
	moveBy := func(b key.Binding, delta func() int) binding {
		return act(b, func() {
			t.userMoved = true
			if t.move(delta()) {
				m.pane.view.reset()
			}
		})
	}
	page := func() int { return max(1, t.height-1) }
	sel := func(st rowStatus) bool { r := m.selected(); return r != nil && r.status == st }

	keys := []binding{
		bind(k.Review, m.openReview).when(func() *disabledReason {
			if sel(stAwaiting) {
				return nil
			}
			return because("v reviews a phase awaiting review (a run with --review); this one does not await it.")
		}).helpIf(func() bool { return sel(stAwaiting) }).fullAs("v", "review the phase").onPress(),
		moveBy(k.Down, func() int { return 1 }).help().fullAs("↑/k ↓/j", "select"),
		act(k.Focus, func() { m.focus = focusDetail }).help().fullAs("enter/tab", "log pane"),
	}
	keys = append(keys, m.runControls(true, false)...)
	keys = append(keys, m.quitHelp()...)
	keys = append(keys, act(k.Search, m.startFilter).help())
	if t.filter != "" {
		keys = append(keys, act(k.Clear, func() { m.clearFilter() }).help())
	}
	keys = append(keys,
		act(k.Steer, m.askSteer).when(func() *disabledReason {
			if sel(stRunning) {
				return nil
			}
			return because("M sends a note to a running phase: its agent is stopped and continues with it (the retry is not used).")
		}).helpIf(func() bool { return sel(stRunning) }).fullAs("M", "steer the running phase").onPress(),
		moveBy(k.Up, func() int { return -1 }).fold(),
		moveBy(k.PageUp, func() int { return -page() }).fold(),
		moveBy(k.PageDown, page).fullAs("pgup/pgdn", "page"),
		moveBy(k.Top, func() int { return -len(m.phases.rows) }),
		moveBy(k.Bottom, func() int { return len(m.phases.rows) }),
		act(k.Next, func() { m.pane.view.next(m.pane.content(), m.pane.logHeight(), 1) }),
		act(k.Prev, func() { m.pane.view.next(m.pane.content(), m.pane.logHeight(), -1) }).fold(),
	)
	return append(keys, m.otherRunKeys()...)
}

// renderRunView draws the phase list and the log pane, side by side when
// the screen is wide enough.
func (m *Model) renderRunView() []string {
	if m.lay.side {
		return m.renderSide()
	}
	return append(m.table.Render(), m.pane.Render()...)
}
