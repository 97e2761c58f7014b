package tui

import (
	"strconv"
	"strings"
)

// darkFromCOLORFGBG reads $COLORFGBG ("15;0", or "15;default;0" as rxvt
// sets it): its last field is the background's ANSI color, dark for 0-6 and
// 8, light for 7 and 9-15. Without a readable value the background is taken
// as dark, as most terminals are. It is the fallback for a terminal that
// does not answer the background-color query (tea.BackgroundColorMsg).
func darkFromCOLORFGBG(v string) bool {
	fields := strings.Split(strings.TrimSpace(v), ";")
	bg, err := strconv.Atoi(fields[len(fields)-1])
	if err != nil || bg < 0 || bg > 15 {
		return true
	}
	return bg <= 6 || bg == 8
}
