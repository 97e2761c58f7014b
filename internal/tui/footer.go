package tui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
)

// maxNoticeLines bounds how much of the screen a notice may take.
const maxNoticeLines = 4

// footerLines are the status lines at the bottom of the screen: a state
// error in watch mode, the halting progress, a notice, and the full help when
// asked for. Under them relayout puts the last line (lastLine), rendered once
// the summary's viewport has its size, which the help line reads.
func (m *Model) footerLines(w int) []string {
	s := m.styles
	var lines []string
	add := func(style lipgloss.Style, text string) { lines = append(lines, style.Render(truncate(text, w))) }
	if m.watchErr != nil {
		add(s.Error, "state: "+m.watchErr.Error())
	}
	switch {
	case m.life.halting() && m.life.interrupts > 1:
		add(s.Prompt, "Killing the running phases…")
	case m.life.halting():
		add(s.Prompt, "Halting: waiting for running phases to stop (ctrl+c again kills them)…")
	case m.watchClosed:
		add(s.Notice, "The watch stopped; press q to quit.")
	}
	if m.notice != "" {
		// A notice often holds a command to copy: it wraps between words
		// rather than losing its end.
		style := s.Notice
		if m.noticeErr {
			style = s.Error
		}
		for _, l := range wrapWords(m.notice, w, maxNoticeLines) {
			lines = append(lines, style.Render(l))
		}
	}
	if m.fullHelp {
		lines = append(lines, m.fullHelpLines(w)...)
	}
	return lines
}

// lastLine is the bottom line of the screen, always exactly one line: the
// question being asked, the search input, or the help line of the keys
// valid now.
func (m *Model) lastLine(w int) string {
	s := m.styles
	switch {
	case m.ask == askQuit:
		return s.Prompt.Render(truncate("Halt the run and quit? y/n", w))
	case m.ask == askFresh:
		return s.Prompt.Render(truncate("Start fresh? Deletes "+m.stateDir()+"; all phases run again; commits stay. y/n", w))
	case m.searching:
		return truncateStyled(m.search.view(w, s), w)
	}
	if m.screen == screenSummary && m.summaryIn != nil && m.summaryVP.TotalLineCount() > m.summaryVP.Height() {
		// Say how far down the summary is, so a long one is seen to scroll.
		pct := fmt.Sprintf(" %3.0f%%", m.summaryVP.ScrollPercent()*100)
		hm := m.help
		hm.SetWidth(w - len(pct))
		return padRight(truncateStyled(hm.ShortHelpView(m.shortHelp()), w-len(pct)), w-len(pct)) + pct
	}
	return truncateStyled(m.help.ShortHelpView(m.shortHelp()), w)
}

// helpKey is a binding shown with a help text for the current context.
func helpKey(b key.Binding, keys, desc string) key.Binding {
	b.SetHelp(keys, desc)
	return b
}

// shortHelp lists the keys valid in the current mode. The help line cuts
// from the end when it is too wide, so the keys that matter most come first
// and quit and help come before the conveniences.
func (m *Model) shortHelp() []key.Binding {
	k := m.keys
	var first, rest []key.Binding
	switch {
	case m.screen == screenSummary && m.summaryIn != nil:
		first = append([]key.Binding{helpKey(k.Down, "↑/↓", "scroll")}, m.runControls(true)...)
		rest = []key.Binding{helpKey(k.Back, "esc", "phases")}
		if m.ended() && !m.complete() {
			rest = append([]key.Binding{k.Copy}, rest...)
		}
	case len(m.rows) == 0:
	case m.focus == focusDetail:
		first = []key.Binding{helpKey(k.Down, "↑/↓", "scroll")}
		if !m.logv.follow {
			first = append(first, helpKey(k.Follow, "G", "follow"))
		}
		first = append(first, m.runControls(false)...)
		rest = []key.Binding{k.Search}
		if m.logv.query != "" {
			rest = append(rest, k.Next)
		}
		rest = append(rest, helpKey(k.Back, "esc", "back"))
	default:
		first = append([]key.Binding{helpKey(k.Down, "↑/↓", "select"), k.Focus}, m.runControls(false)...)
		rest = []key.Binding{k.Search}
	}
	out := append(first, k.Quit, k.Help)
	return append(out, rest...)
}

// runControls are l, r, F and s where they apply.
func (m *Model) runControls(onSummary bool) []key.Binding {
	k := m.keys
	var out []key.Binding
	if i := m.failedRow(); i >= 0 && m.rows[i].status == stFailed && (onSummary || i != m.sel || m.focus != focusDetail) {
		out = append(out, k.Log)
	}
	if m.ended() || (m.life.state == lifeStartFailed && !m.readOnly()) {
		// A complete run has nothing to resume: r and F explain that when
		// pressed, but are not offered.
		switch {
		case m.complete():
		case m.readOnly():
			out = append(out, helpKey(k.Resume, "r", "how to resume"))
		default:
			out = append(out, k.Resume, k.Fresh)
		}
		if !onSummary && m.summaryIn != nil {
			out = append(out, k.Summary)
		}
	}
	return out
}

// fullHelpGroups is the `?` help: every key, grouped.
func (m *Model) fullHelpGroups() [][]key.Binding {
	k := m.keys
	return [][]key.Binding{
		{helpKey(k.Up, "↑/k ↓/j", "select / scroll"), helpKey(k.PageDown, "pgup/pgdn", "page"), helpKey(k.Top, "g/home", "top"),
			helpKey(k.Focus, "enter/tab", "log pane"), helpKey(k.Back, "esc/tab", "phase list")},
		{helpKey(k.Follow, "G/end", "follow the log"), k.Search, helpKey(k.Next, "n/N", "next/prev match"),
			helpKey(k.Left, "←/→", "scroll sideways")},
		{helpKey(k.Resume, "r", "resume after a halt"), helpKey(k.Fresh, "F", "start fresh (asks)"),
			helpKey(k.Copy, "c", "copy the resume command"), helpKey(k.Log, "l", "log of the failed phase"),
			helpKey(k.Summary, "s", "summary")},
		{helpKey(k.Quit, "q", "quit (asks while running)"), helpKey(k.Interrupt, "ctrl+c", "halt (twice: kill)"),
			helpKey(k.Help, "?", "close help")},
	}
}
