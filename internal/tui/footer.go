package tui

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
)

// maxNoticeLines bounds how much of the screen a notice may take.
const maxNoticeLines = 4

// footerView is the bottom of the screen: status lines (a state error in
// watch mode, the halting progress, a notice, the full help when asked
// for), then the last line, always exactly one: the question being asked,
// the search prompt, or the help line of the keys valid now. It owns the
// notice and whether the full help is open.
type footerView struct {
	styles *Styles
	width  int
	help   help.Model

	// notice is a one-off message, cleared by the next key; noticeErr
	// draws it as an error, which outlives a change of the run's state.
	notice    string
	noticeErr bool
	fullHelp  bool

	// What it shows, set by the model before it renders.
	stateErr     error         // a problem reading the state (watch mode)
	halting      int           // interrupts sent to a halting run; 0 when not halting
	watchStopped bool          // the watch ended
	question     string        // a y/n question; "" when none
	search       *searchInput  // the search prompt, when it is open
	searchHelp   string        // the prompt's keys
	searchPrompt string        // what the prompt starts with: "/" for a search
	scroll       string        // how far the summary is scrolled (" 42%"), "" when not shown
	short        []key.Binding // the help line
	full         fullHelpView  // the `?` help, while it is open
	// helpRoom is how many lines the status lines may take with the `?`
	// help, whose reasons are cut to fit; 0: no bound.
	helpRoom int
}

func newFooterView(styles *Styles) footerView {
	return footerView{styles: styles, help: help.New()}
}

// SetSize sets the footer's width.
func (v *footerView) SetSize(w int) {
	v.width = w
	v.help.SetWidth(w)
}

// restyle takes the help line's styles from v.styles.
func (v *footerView) restyle() { v.help.Styles = v.styles.Help }

// Render draws the status lines and the last line.
func (v *footerView) Render() []string { return append(v.statusLines(), v.lastLine()) }

func (v *footerView) setNotice(s string, isErr bool) { v.notice, v.noticeErr = s, isErr }

// clearNotice drops a notice made stale by the run changing state ("the
// run is still going", a resume hint), but keeps an error until a key.
func (v *footerView) clearNotice() {
	if !v.noticeErr {
		v.notice = ""
	}
}

// statusLines are the lines above the last one; the body gets what they
// leave.
func (v *footerView) statusLines() []string {
	s, w := v.styles, v.width
	var lines []string
	add := func(style lipgloss.Style, text string) { lines = append(lines, style.Render(truncate(text, w))) }
	if v.stateErr != nil {
		add(s.Error, "state: "+v.stateErr.Error())
	}
	switch {
	case v.halting > 1:
		add(s.Prompt, "Killing the running phases…")
	case v.halting == 1:
		add(s.Prompt, "Halting: waiting for running phases to stop (ctrl+c again kills them)…")
	case v.watchStopped:
		add(s.Notice, "The watch stopped; press q to quit.")
	}
	if v.notice != "" {
		// A notice often holds a command to copy: it wraps between words
		// rather than losing its end.
		style := s.Notice
		if v.noticeErr {
			style = s.Error
		}
		for _, l := range wrapWords(v.notice, w, maxNoticeLines) {
			lines = append(lines, style.Render(l))
		}
	}
	if v.fullHelp {
		room := -1
		if v.helpRoom > 0 {
			room = max(0, v.helpRoom-len(lines))
		}
		lines = append(lines, v.fullHelpLines(room)...)
	}
	return lines
}

// lastLine is the bottom line of the screen.
func (v *footerView) lastLine() string {
	s, w := v.styles, v.width
	switch {
	case v.question != "":
		return s.Prompt.Render(truncate(v.question, w))
	case v.search != nil:
		return truncateStyled(v.search.view(w, *s, v.searchPrompt, v.searchHelp), w)
	}
	if pct := v.scroll; pct != "" {
		pw := lipgloss.Width(pct) // "→16 esc" is wider in bytes than in cells
		hm := v.help
		hm.SetWidth(w - pw)
		return padRight(truncateStyled(hm.ShortHelpView(v.short), w-pw), w-pw) + pct
	}
	return truncateStyled(v.help.ShortHelpView(v.short), w)
}

// fullHelpLines is the `?` help laid out for the width: its columns side
// by side when they fit, else in rows of as many columns as fit, so no key
// is dropped below 120 columns; then, dimmed, why the dimmed keys do
// nothing now, as many as fit in room lines (room < 0: all).
func (v *footerView) fullHelpLines(room int) []string {
	cols := make([]string, len(v.full.columns))
	for i, c := range v.full.columns {
		cols[i] = v.helpColumn(c)
	}
	sep := v.styles.Help.FullSeparator.Render("    ")
	w := v.width
	var lines []string
	for per := len(cols); per >= 1; per-- {
		lines = lines[:0]
		fits := true
		for i := 0; i < len(cols); i += per {
			row := []string{}
			for j, c := range cols[i:min(i+per, len(cols))] {
				if j > 0 {
					row = append(row, sep)
				}
				row = append(row, c)
			}
			for _, l := range strings.Split(lipgloss.JoinHorizontal(lipgloss.Top, row...), "\n") {
				fits = fits && lipgloss.Width(l) <= w
				lines = append(lines, l)
			}
		}
		if fits {
			break
		}
	}
	for i, l := range lines {
		lines[i] = truncateStyled(strings.TrimRight(l, " "), w)
	}
	// A reason takes two lines at most (the key says all of it when
	// pressed); one that does not fit whole is left out with the rest.
	for _, n := range v.full.notNow {
		keys := strings.Join(n.keys, " ") + ": "
		wrapped := wrapWords(n.reason, w-lipgloss.Width(keys), 2)
		if room >= 0 && len(lines)+len(wrapped) > room {
			break
		}
		for i, l := range wrapped {
			if i > 0 {
				keys = strings.Repeat(" ", lipgloss.Width(keys))
			}
			lines = append(lines, v.styles.Dim.Render(keys+l))
		}
	}
	return lines
}

// helpColumn draws a column of the `?` help: keys, then what they do; a
// key that does nothing now is dimmed.
func (v *footerView) helpColumn(c []helpEntry) string {
	hs := v.styles.Help
	keys, descs := make([]string, len(c)), make([]string, len(c))
	for i, e := range c {
		ks, ds := hs.FullKey, hs.FullDesc
		if e.off {
			ks, ds = v.styles.Dim, v.styles.Dim
		}
		keys[i], descs[i] = ks.Render(e.key), ds.Render(e.desc)
	}
	return lipgloss.JoinHorizontal(lipgloss.Top, strings.Join(keys, "\n"), " ", strings.Join(descs, "\n"))
}
