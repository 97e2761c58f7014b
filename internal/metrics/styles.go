package metrics

import "charm.land/lipgloss/v2"

// Look says how Render may style its text.
type Look int

// Looks, from none to full colour.
const (
	// Plain is text only: for pipes, files and tests.
	Plain Look = iota
	// Mono is a terminal under NO_COLOR: bold and reverse, no colour.
	Mono
	// Color is a terminal with colours.
	Color
)

// styles holds every style the report draws with, built once per Look.
type styles struct {
	heading, dim                         lipgloss.Style
	emergency, critical, warning, invest lipgloss.Style
	bar, spark, good, bad                lipgloss.Style
}

func newStyles(look Look) styles {
	plain := lipgloss.NewStyle()
	switch look {
	case Plain:
		return styles{heading: plain, dim: plain, emergency: plain, critical: plain, warning: plain, invest: plain,
			bar: plain, spark: plain, good: plain, bad: plain}
	case Mono:
		b := plain.Bold(true)
		return styles{heading: b, dim: plain, emergency: b.Reverse(true), critical: b.Reverse(true), warning: b,
			invest: b, bar: plain, spark: plain, good: plain, bad: b}
	}
	var (
		red    = lipgloss.Color("#E05555")
		yellow = lipgloss.Color("#E0B040")
		purple = lipgloss.Color("#9D8CFF")
		green  = lipgloss.Color("#4CB86A")
		grey   = lipgloss.Color("#8A8A8A")
	)
	return styles{
		heading: plain.Bold(true), dim: plain.Foreground(grey),
		emergency: plain.Bold(true).Reverse(true).Foreground(red), critical: plain.Bold(true).Foreground(red),
		warning: plain.Bold(true).Foreground(yellow), invest: plain.Bold(true).Foreground(purple),
		bar: plain.Foreground(purple), spark: plain.Foreground(yellow), good: plain.Foreground(green),
		bad: plain.Foreground(red),
	}
}

func (s styles) level(l string) lipgloss.Style {
	switch l {
	case LevelEmergency:
		return s.emergency
	case LevelCritical:
		return s.critical
	case LevelWarning:
		return s.warning
	}
	return s.invest
}
