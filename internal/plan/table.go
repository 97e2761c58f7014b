package plan

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// column is what an overview table column holds.
type column int

const (
	colOther column = iota
	colPhase
	colDeps
	colName
	colParallel
	colEstimate
	colStatus
	// colAltID is a column that may hold the phase ids instead of Phase:
	// "WU", "Step", "Task" (see pickIDColumn).
	colAltID
)

// letters lowercases s and keeps only its letters: header cells and
// metadata keys are matched on this ("Depends On" → "dependson").
func letters(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// headerColumns maps header cells (letters only) to columns. Synonyms are
// the ones seen in real plans.
var headerColumns = map[string]column{
	"phase": colPhase, "phaseid": colPhase, "id": colPhase,
	"dependson": colDeps, "depends": colDeps, "dependencies": colDeps,
	"dependency": colDeps, "deps": colDeps, "requires": colDeps,
	"blockedby": colDeps, "prerequisites": colDeps, "prereqs": colDeps, "dependsupon": colDeps,
	"name": colName, "title": colName, "phasename": colName,
	"parallelwith": colParallel, "canrunwith": colParallel, "parallel": colParallel,
	"runswith": colParallel, "canruninparallelwith": colParallel, "runsinparallelwith": colParallel,
	"estimate": colEstimate, "est": colEstimate, "effort": colEstimate,
	"status": colStatus, "state": colStatus,
	"wu": colAltID, "workunit": colAltID, "step": colAltID, "task": colAltID,
	"item": colAltID, "key": colAltID, "ticket": colAltID, "story": colAltID,
}

// tableRow is one row of the overview table.
type tableRow struct {
	line       int
	t          title // the Phase cell: id, and a name if written "2A: API"
	name       string
	deps       refList
	par        refList
	estimate   string
	status     PlanStatus
	statusRaw  string
	statusSaid bool // the Status cell says something
	// link is the first link in the row to a local markdown file, as
	// written: the phase's body lives there.
	link string
}

// overview is the plan's phase overview table.
type overview struct {
	line                               int
	hasName, hasPar, hasEst, hasStatus bool
	rows                               []*tableRow
	blankIDs                           []int // lines of rows with cells but no id
	// idColumn is the header of the column the ids were read from, and
	// hint, when ids repeat there, names a column that would key them.
	idColumn, hint string
}

// findOverview returns the first table whose header has an id column and
// a Depends On column, or nil. Later tables are left alone: they belong to
// the document (a section may well hold a table of its own).
func (d *doc) findOverview() *overview {
	var found *overview
	_ = ast.Walk(d.root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		table, ok := n.(*east.Table)
		if !ok {
			return ast.WalkContinue, nil
		}
		if ov := d.readTable(table); ov != nil {
			found = ov
			return ast.WalkStop, nil
		}
		return ast.WalkSkipChildren, nil
	})
	return found
}

// rawRow is a body row's cells before the id column is chosen.
type rawRow struct {
	line  int
	cells []string
	nodes []ast.Node
}

// readTable reads table as an overview table, or returns nil if its header
// lacks an id column or the Depends On column.
func (d *doc) readTable(table *east.Table) *overview {
	var cols []column
	var names []string
	seen := map[column]bool{}
	ov := &overview{line: d.nodeLine(table)}
	var rows []rawRow
	for n := table.FirstChild(); n != nil; n = n.NextSibling() {
		if header, ok := n.(*east.TableHeader); ok {
			ov.line = d.nodeLine(header)
			for c := header.FirstChild(); c != nil; c = c.NextSibling() {
				// "Depends On (ids)", "Estimate (pts)": an aside is no part
				// of the column's name.
				name := d.plainText(c)
				col := headerColumns[letters(dropParentheticals(name))]
				if seen[col] {
					col = colOther // The first column of a kind wins.
				}
				seen[col] = true
				cols = append(cols, col)
				names = append(names, name)
			}
			continue
		}
		row, ok := n.(*east.TableRow)
		if !ok {
			continue
		}
		line := d.nodeLine(row)
		// GFM continues a table over the next line that is not blank, so a
		// sentence written just below a table would otherwise become a row.
		if !bytes.ContainsRune(d.lineText(line), '|') {
			continue
		}
		r := rawRow{line: line}
		for c := row.FirstChild(); c != nil && len(r.cells) < len(cols); c = c.NextSibling() {
			r.cells = append(r.cells, d.plainText(c))
			r.nodes = append(r.nodes, c)
		}
		rows = append(rows, r)
	}
	if !seen[colDeps] {
		return nil
	}
	id := pickIDColumn(cols, rows)
	if id < 0 {
		return nil
	}
	for i, c := range cols {
		if c == colPhase || c == colAltID {
			cols[i] = colOther
		}
	}
	cols[id] = colPhase
	ov.idColumn = names[id]
	if repeats(columnValues(rows, id)) {
		ov.hint = idHint(cols, names, rows, id)
	}
	ov.hasName, ov.hasPar = seen[colName], seen[colParallel]
	ov.hasEst, ov.hasStatus = seen[colEstimate], seen[colStatus]
	for _, r := range rows {
		d.readRow(ov, r, cols)
	}
	return ov
}

// pickIDColumn chooses the column holding the phase ids: Phase, unless its
// cells repeat (several work units of one roadmap phase) and another id
// column ("WU", "Step") holds one id per row; an id column alone when there
// is no Phase column. -1 when there is none.
func pickIDColumn(cols []column, rows []rawRow) int {
	phase, alt := slices.Index(cols, colPhase), slices.Index(cols, colAltID)
	switch {
	case alt < 0:
		return phase
	case phase < 0:
		if idLike(columnValues(rows, alt)) {
			return alt
		}
		return -1
	}
	if repeats(columnValues(rows, phase)) && !repeats(columnValues(rows, alt)) && idLike(columnValues(rows, alt)) {
		return alt
	}
	return phase
}

// idHint names, for ids that repeat in column id, another column that
// has one id-like value per row, or is empty when there is none.
func idHint(cols []column, names []string, rows []rawRow, id int) string {
	for i, c := range cols {
		if i == id || c == colDeps || c == colName || c == colParallel || c == colStatus {
			continue
		}
		if vals := columnValues(rows, i); !repeats(vals) && idLike(vals) {
			return fmt.Sprintf("ids repeat in column %q but column %q has one per row: head that column \"ID\" (and keep %q) to key the phases by it",
				names[id], names[i], names[id])
		}
	}
	return ""
}

// columnValues lists the non-empty cells of column i, cleaned.
func columnValues(rows []rawRow, i int) []string {
	var out []string
	for _, r := range rows {
		if i < len(r.cells) {
			if v := cleanCell(r.cells[i]); v != "" && !strings.EqualFold(v, "total") {
				out = append(out, v)
			}
		}
	}
	return out
}

// repeats reports whether two values normalize to one id.
func repeats(vals []string) bool {
	seen := map[phaseid.ID]bool{}
	for _, v := range vals {
		id := NormalizeID(v)
		if seen[id] {
			return true
		}
		seen[id] = true
	}
	return false
}

// idLike reports whether every value is one id token ("WU-01", "F2", "3"),
// not a sentence: a description column is never taken for ids.
func idLike(vals []string) bool {
	if len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		token, rest := scanToken(v)
		if token == "" || strings.TrimSpace(rest) != "" || !strings.ContainsFunc(token, unicode.IsDigit) {
			return false
		}
	}
	return true
}

// readRow adds one body row to ov. Empty rows and "Total" rows (people sum
// estimates in the last row) are not phases.
func (d *doc) readRow(ov *overview, raw rawRow, cols []column) {
	line := raw.line
	cells := map[column]string{}
	anything := false
	var link string
	for i, text := range raw.cells {
		if text != "" {
			anything = true
		}
		if cols[i] != colOther {
			cells[cols[i]] = text
		}
		if link == "" {
			link = localMarkdownLink(raw.nodes[i])
		}
	}
	if !anything {
		return
	}
	t, ok := parseTitle(cleanCell(cells[colPhase]), false)
	if !ok {
		ov.blankIDs = append(ov.blankIDs, line)
		return
	}
	switch t.id {
	case "total", "totals", "sum":
		return
	}
	r := &tableRow{
		line:     line,
		t:        t,
		name:     cleanCell(cells[colName]),
		deps:     parseRefs(cells[colDeps], line),
		par:      parseParallel(cells[colParallel], line),
		estimate: cleanCell(cells[colEstimate]),
		link:     link,
	}
	if isNone(r.name) {
		r.name = ""
	}
	if isNone(r.estimate) {
		r.estimate = ""
	}
	r.statusRaw = cleanCell(cells[colStatus])
	r.status, r.statusSaid = parseStatus(r.statusRaw)
	ov.rows = append(ov.rows, r)
}

// localMarkdownLink returns the destination of the first link under n to a
// local markdown file ("phases/phase-1.md", "./p1.md#tasks" without its
// fragment), or "". URLs, anchors and other files are not phase bodies.
func localMarkdownLink(n ast.Node) string {
	var dest string
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		link, ok := c.(*ast.Link)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		d := string(link.Destination)
		if i := strings.IndexByte(d, '#'); i >= 0 {
			d = d[:i]
		}
		if strings.Contains(d, "://") || strings.HasPrefix(d, "mailto:") || d == "" {
			return ast.WalkContinue, nil
		}
		if ext := strings.ToLower(path.Ext(d)); ext == ".md" || ext == ".markdown" {
			dest = d
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return dest
}

// fencedOverview returns the line of a phase table written inside a fenced
// code block (a template's example filled in where it stood), or 0.
func (d *doc) fencedOverview() int {
	line := 0
	_ = ast.Walk(d.root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		code, ok := n.(*ast.FencedCodeBlock)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		lines := code.Lines()
		if lines.Len() == 0 {
			return ast.WalkSkipChildren, nil
		}
		var content []byte
		for i := range lines.Len() {
			seg := lines.At(i)
			content = append(content, seg.Value(d.src)...)
		}
		inner := newDoc(content)
		if ov := inner.findOverview(); ov != nil {
			line = d.line(lines.At(0).Start) + ov.line - 1
			return ast.WalkStop, nil
		}
		return ast.WalkSkipChildren, nil
	})
	return line
}
