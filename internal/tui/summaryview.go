package tui

import (
	"slices"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/summary"
)

// renderSummary renders the halt or completion summary (the same text the
// plain printer prints, docs/running.md) into the summary viewport. The viewport
// scrolls, so a summary taller than the screen loses no line.
func (m *Model) renderSummary() {
	if m.summaryIn == nil {
		return
	}
	w := min(max(m.width, 20), 100)
	m.lay.summaryWidth = w
	// The text ends with a newline; kept, it would be a blank line that
	// makes a summary that fits look scrollable.
	m.summaryVP.SetContent(strings.TrimRight(summary.Render(*m.summaryIn, w), "\n") + m.unbrokenCommands())
}

// failedRow returns the index of the phase `l` shows: the first failed
// phase, else the first interrupted or blocked one; -1 when none.
func (m *Model) failedRow() int {
	for _, want := range []rowStatus{stFailed, stInterrupted, stBlocked} {
		if i := slices.IndexFunc(m.rows, func(r *phaseRow) bool { return r.status == want }); i >= 0 {
			return i
		}
	}
	return -1
}
