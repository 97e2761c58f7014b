package tui

import "charm.land/bubbles/v2/key"

// The help line lists the keys valid now, from the keymap of what has the
// keys. It cuts from the end when it is too wide, so the keys that matter
// most come first, and quit and help before the conveniences.

// help is the list's part of the help line: first, and after quit and help.
func (k listKeys) help(filtered bool) (first, rest []key.Binding) {
	rest = []key.Binding{k.Search}
	if filtered {
		rest = append(rest, k.Clear)
	}
	return []key.Binding{k.Down, k.Focus}, rest
}

// help is the pane's part of the help line; follow and the match keys show
// only when they would do something.
func (k paneKeys) help(following, searched bool) (first, rest []key.Binding) {
	first = []key.Binding{k.Down}
	if !following {
		first = append(first, k.Follow)
	}
	rest = []key.Binding{k.Search}
	if searched {
		rest = append(rest, k.Next)
	}
	return first, append(rest, k.Back)
}

// help is the summary's part of the help line.
func (k summaryKeys) help() (first, rest []key.Binding) {
	return []key.Binding{k.Down}, []key.Binding{k.Back}
}

// shortHelp is the help line of the screen and pane that have the keys.
func (m *Model) shortHelp() []key.Binding {
	k := m.keys
	var first, rest []key.Binding
	switch {
	case m.onReview():
		first, rest = k.Review.help()
		if len(m.batchAwaiting()) > 1 {
			first = append([]key.Binding{first[0], k.Review.ApproveBatch}, first[1:]...)
		}
	case m.onSummary():
		first, rest = k.Summary.help()
		first = append(first, m.runControls(true)...)
		if m.ended() && !m.complete() {
			c := k.Run.Copy
			if m.nextCopyIsFix() {
				c = helpKey(c, "c", "copy fix")
			}
			rest = append([]key.Binding{c}, rest...)
		}
	case len(m.phases.rows) == 0:
	case m.focus == focusDetail:
		first, rest = k.Pane.help(m.pane.view.follow, m.pane.view.query != "")
		first = append(first, m.runControls(false)...)
	default:
		first, rest = k.List.help(m.table.filter != "")
		// v and M where they act: on a phase awaiting review, on a
		// running one.
		if r := m.selected(); r != nil && r.status == stAwaiting {
			first = append([]key.Binding{k.List.Review}, first...)
		} else if r != nil && r.status == stRunning {
			rest = append(rest, k.List.Steer)
		}
		first = append(first, m.runControls(false)...)
	}
	out := append(first, k.Run.Quit, k.Run.Help)
	return append(out, rest...)
}

// runControls are l, r, F and s where they apply.
func (m *Model) runControls(onSummary bool) []key.Binding {
	k := m.keys.Run
	var out []key.Binding
	if i := m.phases.failed(); i >= 0 && m.phases.rows[i].status == stFailed && (onSummary || i != m.table.sel || m.focus != focusDetail) {
		out = append(out, k.Log)
	}
	if m.ended() || (m.life.state == lifeStartFailed && !m.readOnly()) {
		// A complete run has nothing to resume: r and F explain that when
		// pressed, but are not offered.
		switch {
		case m.complete():
		case m.readOnly():
			out = append(out, k.ResumeHint)
		default:
			out = append(out, k.Resume, k.Fresh)
		}
		if !onSummary && m.summary.shown() {
			out = append(out, k.Summary)
		}
	}
	return out
}
