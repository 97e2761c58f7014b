package tui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/autobuild-sh/autobuild/internal/clip"
	"github.com/autobuild-sh/autobuild/internal/summary"
)

// listItem is one line of the phase list: a batch heading (row < 0) or a
// phase row.
type listItem struct {
	row   int
	batch int
}

// listItems lays the rows out under their batch headings.
func (m *Model) listItems() []listItem {
	items := make([]listItem, 0, len(m.rows)+8)
	batch := -1
	for i, r := range m.rows {
		if r.batch != batch {
			batch = r.batch
			items = append(items, listItem{row: -1, batch: batch})
		}
		items = append(items, listItem{row: i, batch: batch})
	}
	return items
}

// ensureListVisible scrolls the list so the selected row (and, when it is
// the first of its batch, the batch heading) is in view.
func (m *Model) ensureListVisible() {
	items := m.listItems()
	h := max(1, m.lay.listH)
	idx := 0
	for i, it := range items {
		if it.row == m.sel {
			idx = i
			break
		}
	}
	top := idx
	if idx > 0 && items[idx-1].row < 0 {
		top = idx - 1
	}
	if top < m.listTop {
		m.listTop = top
	}
	if idx >= m.listTop+h {
		m.listTop = idx - h + 1
	}
	m.listTop = max(0, min(m.listTop, len(items)-h))
}

// columns are the widths of a row's fixed columns, shared by all rows so
// they line up.
type columns struct {
	id, name, agent, detail int
}

func (m *Model) columnsFor(w int) columns {
	var c columns
	maxName := 0
	for _, r := range m.rows {
		c.id = max(c.id, width(r.displayID))
		c.agent = max(c.agent, width(r.agent))
		maxName = max(maxName, width(r.name))
	}
	c.id, c.agent = min(max(c.id, 2), 6), min(c.agent, 10)
	if w < 60 {
		c.agent = 0
	}
	// cursor 2, glyph 1, then a space before each column; attempt 3 and
	// elapsed 6 are fixed.
	fixed := 2 + 1 + 1 + c.id + 1 + 1 + 3 + 1 + 6 + 1
	if c.agent > 0 {
		fixed += c.agent + 1
	}
	avail := max(0, w-fixed)
	c.name = min(maxName, max(10, avail/2))
	c.name = min(c.name, avail)
	c.detail = avail - c.name
	return c
}

// renderList draws h lines of the phase list, w wide.
func (m *Model) renderList(w, h int) []string {
	items := m.listItems()
	cols := m.columnsFor(w)
	out := make([]string, 0, h)
	for i := m.listTop; i < len(items) && len(out) < h; i++ {
		it := items[i]
		if it.row < 0 {
			out = append(out, m.styles.Batch.Render(truncate(m.batchTitle(it.batch), w)))
			continue
		}
		out = append(out, m.renderRow(m.rows[it.row], it.row == m.sel, cols, w))
	}
	return out
}

func (m *Model) batchTitle(batch int) string {
	if batch <= 0 {
		return "Other phases"
	}
	return fmt.Sprintf("Batch %d", batch)
}

// renderRow draws one phase: glyph, id, name, attempt, agent, elapsed and
// what it is doing (its last output line, or why it stopped).
func (m *Model) renderRow(r *phaseRow, selected bool, c columns, w int) string {
	cursor := "  "
	if selected {
		cursor = "▸ "
	}
	var b strings.Builder
	b.WriteString(fit(r.displayID, c.id))
	b.WriteString(" ")
	b.WriteString(fit(r.name, c.name))
	b.WriteString(" ")
	b.WriteString(fit(attemptText(r.attempt, r.maxAttempts), 3))
	if c.agent > 0 {
		b.WriteString(" ")
		b.WriteString(fit(r.agent, c.agent))
	}
	b.WriteString(" ")
	b.WriteString(padLeft(m.rowElapsed(r), 6))
	detail := ""
	if c.detail > 1 {
		detail = truncate(m.rowDetail(r), c.detail-1)
	}
	g := m.glyph(r.status)
	if selected {
		line := padRight(cursor+g+" "+b.String()+" "+detail, w)
		return m.styles.Selected.Render(truncate(line, w))
	}
	line := cursor + m.statusStyle(r.status).Render(g) + " " + b.String()
	if detail != "" {
		line += " " + m.detailStyle(r).Render(detail)
	}
	return line
}

// rowElapsed is the running attempt's time so far, or the last attempt's
// duration.
func (m *Model) rowElapsed(r *phaseRow) string {
	switch {
	case r.status == stRunning && !r.started.IsZero():
		return summary.Duration(max(0, m.now().Sub(r.started).Seconds()))
	case r.duration > 0:
		return summary.Duration(r.duration)
	}
	return ""
}

// rowDetail says what a phase is doing or why it is where it is.
func (m *Model) rowDetail(r *phaseRow) string {
	switch r.status {
	case stRunning:
		if r.last != "" {
			return r.last
		}
		return "starting…"
	case stRetrying:
		if !r.until.IsZero() {
			return waitText(r, m.now())
		}
		if r.note != "" {
			return "retry: " + r.note
		}
		return "retry queued"
	case stComplete:
		switch {
		case r.commit != nil && r.commit.SHA != "":
			return clip.SHA(r.commit.SHA) + " " + clip.FirstLine(r.commit.Message)
		case r.commit != nil && r.commit.Message != "" && r.commit.HasChanges():
			return clip.FirstLine(r.commit.Message)
		case r.commit != nil:
			// As the summary says it: a phase that changed nothing has a
			// message but no commit.
			return "no changes to commit"
		}
		return "complete"
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
			return "blocked by " + strings.Join(r.blockedBy, ", ")
		}
		return "blocked"
	case stSkipped:
		if r.note != "" {
			return "skipped: " + r.note
		}
		return "skipped"
	case stInterrupted:
		return "interrupted; resume re-runs it"
	}
	if waits := m.waitingFor(r); len(waits) > 0 {
		return "waits for " + strings.Join(waits, ", ")
	}
	return ""
}

func (m *Model) detailStyle(r *phaseRow) lipgloss.Style {
	switch r.status {
	case stFailed:
		return m.styles.Failed
	case stBlocked:
		return m.styles.Blocked
	}
	return m.styles.Dim
}

// waitingFor lists the display ids of the unfinished dependencies of r.
func (m *Model) waitingFor(r *phaseRow) []string {
	var out []string
	for _, id := range r.dependsOn {
		if d := m.byID[id]; d != nil && !d.done() {
			out = append(out, d.displayID)
		}
	}
	return out
}
