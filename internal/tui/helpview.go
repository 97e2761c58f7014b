package tui

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// fullHelpLines is the `?` help laid out for width w: its groups side by
// side when they fit, else in rows of as many groups as fit (two at 80
// columns), so no key is dropped below 120 columns.
func (m *Model) fullHelpLines(w int) []string {
	groups := m.fullHelpGroups()
	hm := m.help
	hm.SetWidth(0) // measure unbounded; the layout below makes it fit
	for per := len(groups); per >= 1; per-- {
		var lines []string
		fits := true
		for i := 0; i < len(groups); i += per {
			for _, l := range strings.Split(hm.FullHelpView(groups[i:min(i+per, len(groups))]), "\n") {
				fits = fits && lipgloss.Width(l) <= w
				lines = append(lines, l)
			}
		}
		if fits || per == 1 {
			for i, l := range lines {
				lines[i] = truncateStyled(l, w)
			}
			return lines
		}
	}
	return nil
}
