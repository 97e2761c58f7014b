package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
)

// The phase list's filter: `/` in the list (as in k9s and gh-dash) narrows
// it to the phases whose id, name, status, agent or worker hold the query (smart
// case, as the log's search). It filters as it is typed; enter keeps it,
// esc drops it. In the log pane `/` searches the log instead.

// filterRow is the list's line above the rows while a filter is kept.
const filterRow = -2

// shows reports whether row i passes the filter.
func (v *phaseTable) shows(i int) bool {
	if v.filter == "" {
		return true
	}
	r := v.phases.rows[i]
	for _, s := range []string{string(r.displayID), string(r.id), r.name, statusWord(r.status), r.agent, r.worker} {
		if s != "" && matches(s, v.filter) {
			return true
		}
	}
	return false
}

// shown is the indices of the rows that pass the filter, in list order.
func (v *phaseTable) shown() []int {
	out := make([]int, 0, len(v.phases.rows))
	for i := range v.phases.rows {
		if v.shows(i) {
			out = append(out, i)
		}
	}
	return out
}

// move selects the row delta shown rows away from the selection (clamped
// to the first and last shown), and reports whether the selection changed.
func (v *phaseTable) move(delta int) bool {
	shown := v.shown()
	if len(shown) == 0 {
		return false
	}
	at := 0
	for j, i := range shown {
		if i >= v.sel {
			at = j
			break
		}
		at = j
	}
	return v.selectRow(shown[max(0, min(at+delta, len(shown)-1))])
}

// setFilter filters the list by q and keeps the selection on a shown row.
func (v *phaseTable) setFilter(q string) bool {
	v.filter, v.top = q, 0
	if v.sel < len(v.phases.rows) && v.shows(v.sel) {
		return false
	}
	return v.move(0)
}

// filterLine is the line that says a filter is on.
func (v *phaseTable) filterLine() string {
	return fmt.Sprintf("filter /%s: %d of %d phases · esc shows all", v.filter, len(v.shown()), len(v.phases.rows))
}

// startFilter is `/` in the list: the filter prompt, starting empty.
func (m *Model) startFilter() {
	m.filtering = true
	m.filterInput.set("")
	m.table.userMoved = true // the selection stays where the user filtered
}

// filterBody is the filter prompt: the list follows every edit; enter
// keeps the filter, esc drops it.
func (m *Model) filterBody() body {
	k := m.keys.Search
	follow := func() {
		if m.table.setFilter(m.filterInput.text()) {
			m.pane.view.reset()
		}
	}
	return body{name: "filter", keys: func() []binding {
		return []binding{
			act(k.Submit, func() {
				m.filtering = false
				if m.table.filter != "" && len(m.table.shown()) == 0 {
					m.footer.setNotice("No phase matches /"+m.table.filter+"; esc shows them all.", false)
				}
			}),
			act(k.Cancel, func() {
				m.filtering = false
				m.filterInput.set("")
				follow()
			}),
		}
	}, typing: func(key tea.KeyPressMsg) tea.Cmd {
		m.filterInput.update(key)
		follow()
		return nil
	}, line: &promptLine{input: &m.filterInput, help: "filter phases · enter keep · esc show all"}}
}

// clearFilter is esc in the list while a filter is kept.
func (m *Model) clearFilter() bool {
	if m.table.filter == "" {
		return false
	}
	m.table.setFilter("")
	return true
}
