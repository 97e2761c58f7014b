package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/autobuild-sh/autobuild/internal/clip"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/human"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// sectionPrefix starts the detail pane's headings ("── gates ──") and the
// log's attempt separators, which are drawn in the section style.
const sectionPrefix = "── "

// logPane is the detail pane: a title bar, then the selected phase's log
// followed by its gates, failure report and commit. It owns the scroll and
// search state of what it shows (logView) and the search prompt.
type logPane struct {
	styles        *Styles
	width, height int // height includes the title bar

	// What it shows, set by the model before it renders.
	row     *phaseRow // the selected phase; nil when none
	phases  *phaseSet
	now     time.Time
	focused bool // the keys move it: the title bar is highlighted

	view      logView
	search    searchInput
	searching bool // the search prompt takes the keys
}

// SetSize sets the pane's size, its title bar included.
func (p *logPane) SetSize(w, h int) { p.width, p.height = w, h }

// logHeight is the number of log lines the pane shows.
func (p *logPane) logHeight() int { return max(1, p.height-1) }

// content is what the pane scrolls through for the selected phase (empty
// when none).
func (p *logPane) content() content {
	if p.row == nil {
		return content{log: newRing(1)}
	}
	return content{log: p.row.log, extra: trailer(p.row)}
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
				line += " in " + human.Duration(g.DurationSeconds)
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
			"Blocked by "+phaseid.Join(r.blockedBy, ", ")+": it runs once that is fixed and the run resumed.")
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

// Render draws the pane: a title bar, then height-1 lines of the selected
// phase's content; nothing without a phase.
func (p *logPane) Render() []string {
	r, h, w := p.row, p.height, p.width
	if h <= 0 || r == nil {
		return nil
	}
	c := p.content()
	out := make([]string, 0, h)
	out = append(out, p.title(c, w))
	if c.end() == c.start() {
		out = append(out, p.styles.Dim.Render(truncate("  "+p.placeholder(), w)))
		return out
	}
	for i := p.view.topFor(c, h-1); i < c.end() && len(out) < h; i++ {
		out = append(out, p.renderLine(c.line(i), i, w))
	}
	return out
}

// placeholder stands in for a phase with nothing to show yet.
func (p *logPane) placeholder() string {
	r := p.row
	if r.status == stPending {
		if waits := p.phases.waitingFor(r); len(waits) > 0 {
			return "Not started: waits for " + phaseid.Join(waits, ", ") + "."
		}
		return "Not started yet."
	}
	if r.status == stSkipped {
		return "Skipped: " + r.note
	}
	return "No output."
}

// title is the pane's title bar: which phase, its attempt and state on the
// left; follow mode or the search on the right.
func (p *logPane) title(c content, w int) string {
	r := p.row
	parts := []string{string(r.displayID)}
	if r.name != "" {
		parts = append(parts, r.name)
	}
	if a := attemptText(r.attempt, r.maxAttempts); a != "" {
		parts = append(parts, "attempt "+a)
	}
	if r.agent != "" {
		parts = append(parts, r.agent)
	}
	if r.worker != "" {
		parts = append(parts, "on "+r.worker)
	}
	st := statusWord(r.status)
	if e := rowElapsed(r, p.now); e != "" {
		st += " " + e
	}
	parts = append(parts, st)
	var right string
	switch v := p.view; {
	case v.query != "":
		// "3/10": where the current match is among them all, counted
		// on what the pane holds now (new lines may have matched).
		switch pos, n := v.tally(c); {
		case n == 0:
			right = fmt.Sprintf("/%s no match", v.query)
		case pos == 0:
			right = fmt.Sprintf("/%s %d match", v.query, n)
			if n != 1 {
				right += "es"
			}
		default:
			right = fmt.Sprintf("/%s %d/%d", v.query, pos, n)
		}
	case v.follow:
		right = "following"
	default:
		right = "paused · G follows"
	}
	if x := p.view.xoff; x > 0 {
		// Scrolled sideways: say how far, and how back.
		right = fmt.Sprintf("→%d esc · ", x) + right
	}
	line := spread(" "+strings.Join(parts, " · "), right+" ", w)
	if p.focused {
		return p.styles.PaneTitle.Render(line)
	}
	return p.styles.PaneIdle.Render(line)
}

func statusWord(st rowStatus) string {
	return [...]string{
		stPending: "pending", stRunning: "running", stRetrying: "retry queued", stComplete: "complete",
		stFailed: "failed", stBlocked: "blocked", stSkipped: "skipped", stInterrupted: "interrupted",
		stAwaiting: "awaiting review",
	}[st]
}

// renderLine draws one content line, scrolled sideways and cut to w, with
// search matches highlighted.
func (p *logPane) renderLine(line string, abs int64, w int) string {
	v := &p.view
	seg := line
	if v.xoff > 0 || ansi.StringWidth(line) > w {
		seg = ansi.Cut(line, v.xoff, v.xoff+w)
	}
	if strings.HasPrefix(line, sectionPrefix) {
		return p.styles.Section.Render(seg)
	}
	q := v.query
	if q == "" {
		return seg
	}
	ranges := matchRanges(seg, q)
	if len(ranges) == 0 {
		return seg
	}
	style := p.styles.Match
	if abs == v.cur {
		style = p.styles.Current
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
