package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/autobuild-sh/autobuild/internal/clip"
	"github.com/autobuild-sh/autobuild/internal/human"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// phaseTable is the phase list: the phases grouped under batch headings,
// one line each, with the selection. It owns the selection and its scroll.
type phaseTable struct {
	styles        *Styles
	width, height int

	// What it shows, set by the model before it renders.
	phases *phaseSet
	now    time.Time
	frame  int // the spinner's

	// sel is the selected row's index in phases.rows.
	sel int
	// userMoved is set once the user picks a phase; until then the
	// selection follows the action (the first running or failed phase).
	userMoved bool
	// top is the first visible line.
	top int
	// filter narrows the list to the rows that match it (filter.go); ""
	// shows them all.
	filter string
}

// SetSize sets the list's size and scrolls the selection into view.
func (v *phaseTable) SetSize(w, h int) {
	v.width, v.height = w, h
	v.ensureVisible()
}

// selected returns the selected row, or nil when there are none.
func (v *phaseTable) selected() *phaseRow {
	if v.sel < 0 || v.sel >= len(v.phases.rows) {
		return nil
	}
	return v.phases.rows[v.sel]
}

func (v *phaseTable) clamp() { v.sel = max(0, min(v.sel, len(v.phases.rows)-1)) }

// selectRow moves the selection to row i (clamped) and reports whether it
// changed.
func (v *phaseTable) selectRow(i int) bool {
	i = max(0, min(i, len(v.phases.rows)-1))
	if i == v.sel {
		return false
	}
	v.sel = i
	return true
}

// inserted keeps the selection on its row when a row is inserted at i.
func (v *phaseTable) inserted(i int) {
	if i <= v.sel && len(v.phases.rows) > 1 {
		v.sel++
	}
}

// listItem is one line of the phase list: a batch heading (row < 0) or a
// phase row.
type listItem struct {
	row   int
	batch int
}

// items lays the rows out under their batch headings.
func (v *phaseTable) items() []listItem {
	items := make([]listItem, 0, len(v.phases.rows)+8)
	if v.filter != "" {
		items = append(items, listItem{row: filterRow})
	}
	batch := -1
	for i, r := range v.phases.rows {
		if !v.shows(i) {
			continue
		}
		if r.batch != batch {
			batch = r.batch
			items = append(items, listItem{row: -1, batch: batch})
		}
		items = append(items, listItem{row: i, batch: batch})
	}
	return items
}

// ensureVisible scrolls the list so the selected row (and, when it is the
// first of its batch, the batch heading) is in view.
func (v *phaseTable) ensureVisible() {
	items := v.items()
	h := max(1, v.height)
	idx := 0
	for i, it := range items {
		if it.row == v.sel {
			idx = i
			break
		}
	}
	top := idx
	if idx > 0 && items[idx-1].row < 0 {
		top = idx - 1
	}
	if top == 1 && items[0].row == filterRow {
		top = 0 // the filter's line stays in view with the first batch
	}
	if top < v.top {
		v.top = top
	}
	if idx >= v.top+h {
		v.top = idx - h + 1
	}
	v.top = max(0, min(v.top, len(items)-h))
}

// columns are the widths of a row's fixed columns, shared by all rows so
// they line up.
type columns struct {
	id, name, agent, detail int
	// worker is the column of the workers (--executor temporal): 0 when
	// no row has one, so a local run's list is as it was.
	worker int
}

// maxWorker bounds the worker column ("@" and the name); the pane's
// title names it whole.
const maxWorker = 16

func (v *phaseTable) columnsFor(w int) columns {
	var c columns
	maxName := 0
	for _, r := range v.phases.rows {
		c.id = max(c.id, width(string(r.displayID)))
		c.agent = max(c.agent, width(r.agent))
		if r.worker != "" {
			c.worker = max(c.worker, 1+width(r.worker))
		}
		maxName = max(maxName, width(r.name))
	}
	c.id, c.agent = min(max(c.id, 2), 6), min(c.agent, 10)
	c.worker = min(c.worker, maxWorker)
	if w < 60 {
		c.agent = 0
	}
	if w < 80 || c.agent == 0 {
		c.worker = 0
	}
	// cursor 2, glyph 1, then a space before each column; attempt 3 and
	// elapsed 6 are fixed.
	fixed := 2 + 1 + 1 + c.id + 1 + 1 + 3 + 1 + 6 + 1
	if c.agent > 0 {
		fixed += c.agent + 1
	}
	if c.worker > 0 {
		fixed += c.worker + 1
	}
	avail := max(0, w-fixed)
	c.name = min(maxName, max(10, avail/2))
	c.name = min(c.name, avail)
	c.detail = avail - c.name
	return c
}

// Render draws at most height lines of the list, width wide.
func (v *phaseTable) Render() []string {
	w, h := v.width, v.height
	items := v.items()
	cols := v.columnsFor(w)
	out := make([]string, 0, h)
	for i := v.top; i < len(items) && len(out) < h; i++ {
		it := items[i]
		if it.row == filterRow {
			out = append(out, v.styles.Prompt.Render(truncate(v.filterLine(), w)))
			continue
		}
		if it.row < 0 {
			out = append(out, v.styles.Batch.Render(truncate(batchTitle(it.batch), w)))
			continue
		}
		out = append(out, v.renderRow(v.phases.rows[it.row], it.row == v.sel, cols, w))
	}
	return out
}

func batchTitle(batch int) string {
	if batch <= 0 {
		return "Other phases"
	}
	return fmt.Sprintf("Batch %d", batch)
}

// renderRow draws one phase: glyph, id, name, attempt, agent, elapsed and
// what it is doing (its last output line, or why it stopped).
func (v *phaseTable) renderRow(r *phaseRow, selected bool, c columns, w int) string {
	cursor := "  "
	if selected {
		cursor = "▸ "
	}
	var b strings.Builder
	b.WriteString(fit(string(r.displayID), c.id))
	b.WriteString(" ")
	b.WriteString(fit(r.name, c.name))
	b.WriteString(" ")
	b.WriteString(fit(attemptText(r.attempt, r.maxAttempts), 3))
	if c.agent > 0 {
		b.WriteString(" ")
		b.WriteString(fit(r.agent, c.agent))
	}
	if c.worker > 0 {
		worker := ""
		if r.worker != "" {
			worker = "@" + r.worker
		}
		b.WriteString(" ")
		b.WriteString(fit(worker, c.worker))
	}
	b.WriteString(" ")
	b.WriteString(padLeft(rowElapsed(r, v.now), 6))
	detail := ""
	if c.detail > 1 {
		detail = truncate(rowDetail(r, v.phases, v.now), c.detail-1)
	}
	g := glyph(r.status, v.frame)
	if selected {
		line := padRight(cursor+g+" "+b.String()+" "+detail, w)
		return v.styles.Selected.Render(truncate(line, w))
	}
	line := cursor + v.styles.status(r.status).Render(g) + " " + b.String()
	if detail != "" {
		line += " " + v.styles.detail(r).Render(detail)
	}
	return line
}

// rowElapsed is the running attempt's time so far, or the last attempt's
// duration.
func rowElapsed(r *phaseRow, now time.Time) string {
	switch {
	case r.status == stRunning && !r.started.IsZero():
		return human.Duration(max(0, now.Sub(r.started).Seconds()))
	case r.duration > 0:
		return human.Duration(r.duration)
	}
	return ""
}

// rowDetail says what a phase is doing or why it is where it is.
func rowDetail(r *phaseRow, phases *phaseSet, now time.Time) string {
	switch r.status {
	case stRunning:
		if r.last != "" {
			return r.last
		}
		return "starting…"
	case stRetrying:
		if !r.until.IsZero() {
			return waitText(r, now)
		}
		if r.note != "" {
			return "retry: " + r.note
		}
		if f := r.failure; f != nil {
			// Its retry waits to start (a free slot, its batch): why.
			return "retry queued after " + string(f.Type) + ": " + f.Message
		}
		return "retry queued"
	case stComplete:
		return commitDetail(r.commit)
	case stFailed:
		if f := r.failure; f != nil {
			s := string(f.Type)
			if f.Message != "" {
				s += ": " + f.Message
			}
			return s
		}
		return "failed"
	case stBlocked:
		if len(r.blockedBy) > 0 {
			return "blocked by " + phaseid.Join(r.blockedBy, ", ")
		}
		return "blocked"
	case stSkipped:
		if r.note != "" {
			return "skipped: " + r.note
		}
		return "skipped"
	case stInterrupted:
		return "interrupted; resume re-runs it"
	case stAwaiting:
		return "awaiting review: v to review"
	}
	if waits := phases.waitingFor(r); len(waits) > 0 {
		return "waits for " + phaseid.Join(waits, ", ")
	}
	return ""
}

// commitDetail is a completed phase's row detail: its commit, or why it
// has none.
func commitDetail(c *state.Commit) string {
	switch {
	case c != nil && c.SHA != "":
		return clip.SHA(c.SHA) + " " + clip.FirstLine(c.Message)
	case c != nil && c.Message != "" && c.HasChanges():
		return clip.FirstLine(c.Message)
	case c != nil:
		// As the summary says it: a phase that changed nothing has a
		// message but no commit.
		return "no changes to commit"
	}
	return "complete"
}

// detail is the color of a row's detail text.
func (s *Styles) detail(r *phaseRow) lipgloss.Style {
	switch r.status {
	case stFailed:
		return s.Failed
	case stBlocked, stAwaiting:
		return s.Blocked
	}
	return s.Dim
}
