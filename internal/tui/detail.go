package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/autobuild-sh/autobuild/internal/clip"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/summary"
)

// sectionPrefix starts the detail pane's headings ("── gates ──") and the
// log's attempt separators, which are drawn in the section style.
const sectionPrefix = "── "

// contentFor is what the detail pane shows for r.
func (m *Model) contentFor(r *phaseRow) content {
	return content{log: r.log, extra: trailer(r)}
}

// selectedContent is the content of the selected phase (empty when none).
func (m *Model) selectedContent() content {
	if r := m.selected(); r != nil {
		return m.contentFor(r)
	}
	return content{log: newRing(1)}
}

// trailer is what follows the log: the gates of the latest attempt, the
// failure report, the commit, or what blocks the phase.
func trailer(r *phaseRow) []string {
	var x []string
	if len(r.gates) > 0 {
		x = append(x, "", sectionPrefix+"gates ──")
		for _, g := range r.gates {
			line := fmt.Sprintf("%s %-9s %s", gateGlyph(g.Status), g.Kind, gateStatusText(g))
			if g.DurationSeconds > 0 {
				line += " in " + summary.Duration(g.DurationSeconds)
			}
			x = append(x, line)
			if g.Command != "" {
				x = append(x, "    $ "+g.Command)
			}
			for _, l := range tail(strings.Split(strings.TrimRight(g.OutputSummary, "\n"), "\n"), 10) {
				if l != "" {
					x = append(x, "    "+sanitize(l))
				}
			}
		}
	}
	if r.failure != nil {
		x = append(x, "", sectionPrefix+"failure report ──")
		for _, l := range strings.Split(strings.TrimRight(failure.FormatReport(*r.failure), "\n"), "\n") {
			x = append(x, sanitize(l))
		}
	}
	if r.status == stComplete && r.commit != nil {
		x = append(x, "", sectionPrefix+"commit ──")
		c := r.commit
		switch {
		case c.SHA != "":
			x = append(x, clip.SHA(c.SHA)+" "+clip.FirstLine(c.Message))
		case c.Message != "" && c.HasChanges():
			x = append(x, "not committed yet: "+clip.FirstLine(c.Message))
		default:
			x = append(x, "No changes to commit.")
		}
		if c.HasChanges() {
			x = append(x, fmt.Sprintf("%d created, %d modified, %d deleted", len(c.FilesCreated), len(c.FilesModified), len(c.FilesDeleted)))
		}
	}
	if r.status == stBlocked && len(r.blockedBy) > 0 {
		x = append(x, "", sectionPrefix+"blocked ──",
			"Blocked by "+strings.Join(r.blockedBy, ", ")+": it runs once that is fixed and the run resumed.")
	}
	return x
}

func gateGlyph(status string) string {
	switch status {
	case state.GatePassed:
		return "✓"
	case state.GateFailed:
		return "✗"
	case state.GateMissing:
		return "?"
	}
	return "-"
}

func gateStatusText(g gateRow) string {
	switch g.Status {
	case state.GatePassed:
		return "passed"
	case state.GateFailed:
		return fmt.Sprintf("failed (exit %d)", g.ExitCode)
	case state.GateMissing:
		return "not run (tool missing)"
	case state.GateNotRun:
		return "not run"
	}
	return g.Status
}

func tail(lines []string, n int) []string {
	if len(lines) > n {
		return lines[len(lines)-n:]
	}
	return lines
}

// renderDetail draws the detail pane: a title bar, then h-1 lines of the
// selected phase's content.
func (m *Model) renderDetail(w, h int) []string {
	r := m.selected()
	if h <= 0 || r == nil {
		return nil
	}
	c := m.contentFor(r)
	out := make([]string, 0, h)
	out = append(out, m.detailTitle(r, c, w))
	if c.end() == c.start() {
		out = append(out, m.styles.Dim.Render(truncate("  "+m.placeholder(r), w)))
		return out
	}
	for i := m.logv.topFor(c, h-1); i < c.end() && len(out) < h; i++ {
		out = append(out, m.renderLogLine(c.line(i), i, w))
	}
	return out
}

// placeholder stands in for a phase with nothing to show yet.
func (m *Model) placeholder(r *phaseRow) string {
	if r.status == stPending {
		if waits := m.waitingFor(r); len(waits) > 0 {
			return "Not started: waits for " + strings.Join(waits, ", ") + "."
		}
		return "Not started yet."
	}
	if r.status == stSkipped {
		return "Skipped: " + r.note
	}
	return "No output."
}

// detailTitle is the pane's title bar: which phase, its attempt and state on
// the left; follow mode or the search on the right.
func (m *Model) detailTitle(r *phaseRow, c content, w int) string {
	parts := []string{r.displayID}
	if r.name != "" {
		parts = append(parts, r.name)
	}
	if a := attemptText(r.attempt, r.maxAttempts); a != "" {
		parts = append(parts, "attempt "+a)
	}
	if r.agent != "" {
		parts = append(parts, r.agent)
	}
	st := statusWord(r.status)
	if e := m.rowElapsed(r); e != "" {
		st += " " + e
	}
	parts = append(parts, st)
	var right string
	switch {
	case m.logv.query != "":
		right = fmt.Sprintf("/%s %d match", m.logv.query, m.logv.count)
		if m.logv.count != 1 {
			right += "es"
		}
	case m.logv.follow:
		right = "following"
	default:
		right = "paused · G follows"
	}
	line := spread(" "+strings.Join(parts, " · "), right+" ", w)
	if m.focus == focusDetail && m.screen == screenRun {
		return m.styles.PaneTitle.Render(line)
	}
	return m.styles.PaneIdle.Render(line)
}

func statusWord(st rowStatus) string {
	return [...]string{
		stPending: "pending", stRunning: "running", stRetrying: "retry queued", stComplete: "complete",
		stFailed: "failed", stBlocked: "blocked", stSkipped: "skipped", stInterrupted: "interrupted",
	}[st]
}

// renderLogLine draws one content line, scrolled by xoff and cut to w, with
// search matches highlighted.
func (m *Model) renderLogLine(line string, abs int64, w int) string {
	seg := line
	if m.logv.xoff > 0 || ansi.StringWidth(line) > w {
		seg = ansi.Cut(line, m.logv.xoff, m.logv.xoff+w)
	}
	if strings.HasPrefix(line, sectionPrefix) {
		return m.styles.Section.Render(seg)
	}
	q := m.logv.query
	if q == "" {
		return seg
	}
	ranges := matchRanges(seg, q)
	if len(ranges) == 0 {
		return seg
	}
	style := m.styles.Match
	if abs == m.logv.cur {
		style = m.styles.Current
	}
	var b strings.Builder
	prev := 0
	for _, rg := range ranges {
		b.WriteString(seg[prev:rg[0]])
		b.WriteString(style.Render(seg[rg[0]:rg[1]]))
		prev = rg[1]
	}
	b.WriteString(seg[prev:])
	return b.String()
}
