package tui

import (
	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"
)

// Styles holds every style the TUI draws with, built once for the terminal's
// background and color support; views never make their own.
type Styles struct {
	Title     lipgloss.Style // the plan title in the header
	Dim       lipgloss.Style // secondary text
	Batch     lipgloss.Style // "Batch 2" group headings
	Selected  lipgloss.Style // the selected row
	PaneTitle lipgloss.Style // the detail pane's title bar, focused
	PaneIdle  lipgloss.Style // the detail pane's title bar, unfocused
	Section   lipgloss.Style // "── gates ──" in the detail pane
	Match     lipgloss.Style // a search match
	Current   lipgloss.Style // the current search match
	Prompt    lipgloss.Style // a y/n question
	Error     lipgloss.Style
	Notice    lipgloss.Style // a transient message

	Running, Complete, Failed, Blocked, Pending, Skipped lipgloss.Style

	BarFull, BarEmpty lipgloss.Style

	// DiffAdd, DiffDel and DiffHunk draw a diff's added and removed lines
	// and its @@ headers (the review screen).
	DiffAdd, DiffDel, DiffHunk lipgloss.Style

	Help help.Styles
}

// NewStyles builds the styles for a dark or light background. Without color
// (NO_COLOR, or a terminal without colors) emphasis uses only bold, reverse
// and underline, which NO_COLOR allows.
func NewStyles(isDark, color bool) Styles {
	plain := lipgloss.NewStyle()
	if !color {
		return Styles{
			Title: plain.Bold(true), Dim: plain, Batch: plain.Bold(true),
			Selected: plain.Reverse(true), PaneTitle: plain.Reverse(true).Bold(true), PaneIdle: plain.Underline(true),
			Section: plain.Bold(true), Match: plain.Underline(true), Current: plain.Reverse(true),
			Prompt: plain.Bold(true), Error: plain.Bold(true), Notice: plain.Bold(true),
			Running: plain, Complete: plain, Failed: plain.Bold(true), Blocked: plain, Pending: plain, Skipped: plain,
			BarFull: plain, BarEmpty: plain,
			// The lines' + and - say it without color.
			DiffAdd: plain, DiffDel: plain, DiffHunk: plain.Bold(true),
			Help: help.Styles{Ellipsis: plain, ShortKey: plain.Bold(true), ShortDesc: plain, ShortSeparator: plain,
				FullKey: plain.Bold(true), FullDesc: plain, FullSeparator: plain},
		}
	}
	ld := lipgloss.LightDark(isDark)
	var (
		fg      = ld(lipgloss.Color("#1F1F1F"), lipgloss.Color("#E4E4E4"))
		dim     = ld(lipgloss.Color("#6E6E6E"), lipgloss.Color("#8A8A8A"))
		accent  = ld(lipgloss.Color("#5A3FD6"), lipgloss.Color("#9D8CFF"))
		green   = ld(lipgloss.Color("#1E8A3A"), lipgloss.Color("#5FD07A"))
		red     = ld(lipgloss.Color("#C62828"), lipgloss.Color("#FF6B6B"))
		yellow  = ld(lipgloss.Color("#9A6B00"), lipgloss.Color("#F2C14E"))
		blue    = ld(lipgloss.Color("#1565C0"), lipgloss.Color("#64B5F6"))
		selBg   = ld(lipgloss.Color("#E3DEFF"), lipgloss.Color("#352F55"))
		barBg   = ld(lipgloss.Color("#D0D0D0"), lipgloss.Color("#3A3A3A"))
		matchBg = ld(lipgloss.Color("#FFE08A"), lipgloss.Color("#6B5A00"))
	)
	return Styles{
		Title:     plain.Bold(true).Foreground(accent),
		Dim:       plain.Foreground(dim),
		Batch:     plain.Bold(true).Foreground(dim),
		Selected:  plain.Background(selBg).Foreground(fg),
		PaneTitle: plain.Bold(true).Background(accent).Foreground(ld(lipgloss.Color("#FFFFFF"), lipgloss.Color("#121212"))),
		PaneIdle:  plain.Background(barBg).Foreground(fg),
		Section:   plain.Bold(true).Foreground(accent),
		Match:     plain.Background(matchBg),
		Current:   plain.Reverse(true).Bold(true),
		Prompt:    plain.Bold(true).Foreground(yellow),
		Error:     plain.Bold(true).Foreground(red),
		Notice:    plain.Foreground(blue),
		Running:   plain.Foreground(blue),
		Complete:  plain.Foreground(green),
		Failed:    plain.Bold(true).Foreground(red),
		Blocked:   plain.Foreground(yellow),
		Pending:   plain.Foreground(dim),
		Skipped:   plain.Foreground(dim),
		BarFull:   plain.Foreground(green),
		BarEmpty:  plain.Foreground(barBg),
		DiffAdd:   plain.Foreground(green),
		DiffDel:   plain.Foreground(red),
		DiffHunk:  plain.Foreground(accent),
		Help:      helpStyles(ld),
	}
}

// helpStyles are the help line's: its keys near the text's color and its
// descriptions dimmer, but readable (bubbles' defaults, 239 on dark and 249
// on light, are hard to read).
func helpStyles(ld lipgloss.LightDarkFunc) help.Styles {
	var (
		plain = lipgloss.NewStyle()
		key   = plain.Foreground(ld(lipgloss.Color("#2E2E2E"), lipgloss.Color("#D0D0D0")))
		desc  = plain.Foreground(ld(lipgloss.Color("#5C5C5C"), lipgloss.Color("#A8A8A8")))
		sep   = plain.Foreground(ld(lipgloss.Color("#8A8A8A"), lipgloss.Color("#6E6E6E")))
	)
	return help.Styles{Ellipsis: sep, ShortKey: key, ShortDesc: desc, ShortSeparator: sep,
		FullKey: key, FullDesc: desc, FullSeparator: sep}
}
