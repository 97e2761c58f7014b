package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/spinner"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/summary"
)

// spinnerFrames turn while a phase runs.
var spinnerFrames = spinner.MiniDot.Frames

// renderHeader draws the title line (plan, commit mode, agent, elapsed) and
// the progress line (run state, counts by status, progress bar).
func (m *Model) renderHeader(w int) []string {
	title := m.run.title
	if title == "" {
		title = m.opts.PlanPath
	}
	var right []string
	if r := m.firstWaiting(); r != nil {
		right = append(right, waitText(r, m.now()))
	}
	if m.run.commitMode != "" {
		right = append(right, "commit "+m.run.commitMode)
	}
	if m.run.agent != "" {
		right = append(right, "agent "+m.run.agent)
	}
	if u := m.run.usage; u != nil {
		right = append(right, usageShort(u))
	}
	if e := m.elapsed(); e != "" {
		right = append(right, e)
	}
	rightText := strings.Join(right, " · ")
	left := "autobuild"
	if title != "" {
		left += " · " + title
	}
	line1 := spread(left, rightText, w)
	// Style after laying out, so widths are computed on plain text.
	if strings.HasPrefix(line1, "autobuild") {
		line1 = m.styles.Title.Render("autobuild") + line1[len("autobuild"):]
	}
	return []string{line1, m.progressLine(w)}
}

// usageShort is the run's usage in the header: "12.3k in · 4.1k out ·
// $0.42" (the cost where the CLIs price it).
func usageShort(u *state.Usage) string {
	s := state.Tokens(u.InputTokens+u.CacheReadTokens+u.CacheWriteTokens) + " in · " + state.Tokens(u.OutputTokens) + " out"
	if u.CostUSD > 0 {
		s += " · " + state.Cost(u.CostUSD)
	}
	return s
}

// elapsed is the run's wall time so far, or its total once it ended.
func (m *Model) elapsed() string {
	if m.run.started.IsZero() {
		return ""
	}
	end := m.now()
	if !m.run.ended.IsZero() {
		end = m.run.ended
	}
	return summary.Duration(max(0, end.Sub(m.run.started).Seconds()))
}

// runState is the one word describing the run in the header.
func (m *Model) runState() (string, lipgloss.Style) {
	s := m.styles
	switch {
	case m.life.halting():
		return "halting", s.Blocked
	case m.life.state == lifeRestarting:
		return "restarting", s.Running
	case m.life.state == lifeStarting && m.run.status == "":
		return "starting", s.Running
	case m.life.state == lifeStartFailed && m.run.status == "":
		return "not started", s.Failed
	}
	switch m.run.status {
	case state.RunRunning:
		return "running", s.Running
	case state.RunHalted:
		return "halted", s.Failed
	case state.RunInterrupted:
		return "interrupted", s.Blocked
	case state.RunComplete:
		return "complete", s.Complete
	}
	if m.opts.Watch != nil {
		return "waiting", s.Pending
	}
	return "starting", s.Running
}

// statusCount is one "3 done" item of the progress line.
type statusCount struct {
	st    rowStatus
	label string
}

var countOrder = []statusCount{
	{stComplete, "done"}, {stRunning, "running"}, {stRetrying, "retrying"}, {stFailed, "failed"},
	{stBlocked, "blocked"}, {stInterrupted, "interrupted"}, {stPending, "pending"}, {stSkipped, "skipped"},
}

func (m *Model) progressLine(w int) string {
	var counts [stInterrupted + 1]int
	done := 0
	for _, r := range m.rows {
		counts[r.status]++
		if r.done() {
			done++
		}
	}
	word, wordStyle := m.runState()
	parts := []string{wordStyle.Render(word)}
	plainW := ansi.StringWidth(word)
	for _, c := range countOrder {
		if n := counts[c.st]; n > 0 {
			text := fmt.Sprintf("%d %s", n, c.label)
			parts = append(parts, m.statusStyle(c.st).Render(text))
			plainW += 3 + ansi.StringWidth(text)
		}
	}
	line := strings.Join(parts, m.styles.Dim.Render(" · "))
	total := len(m.rows)
	frac := fmt.Sprintf(" %d/%d", done, total)
	barW := min(30, w-plainW-2-len(frac))
	if total == 0 || barW < 8 {
		return truncateStyled(line, w)
	}
	full := barW * done / total
	bar := m.styles.BarFull.Render(strings.Repeat("█", full)) + m.styles.BarEmpty.Render(strings.Repeat("░", barW-full))
	return padRight(line, w-barW-len(frac)) + bar + frac
}

// truncateStyled cuts a styled string to w cells.
func truncateStyled(s string, w int) string {
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// statusStyle is the color of a status.
func (m *Model) statusStyle(st rowStatus) lipgloss.Style {
	s := m.styles
	switch st {
	case stRunning, stRetrying:
		return s.Running
	case stComplete:
		return s.Complete
	case stFailed:
		return s.Failed
	case stBlocked, stInterrupted:
		return s.Blocked
	case stSkipped:
		return s.Skipped
	}
	return s.Pending
}

// glyph is a status's one-cell symbol; running phases get the spinner.
func (m *Model) glyph(st rowStatus) string {
	switch st {
	case stRunning:
		return spinnerFrames[m.frame%len(spinnerFrames)]
	case stRetrying:
		return "↻"
	case stComplete:
		return "✓"
	case stFailed:
		return "✗"
	case stBlocked:
		return "⊘"
	case stSkipped:
		return "⏭"
	case stInterrupted:
		return "⏸"
	}
	return "○"
}
