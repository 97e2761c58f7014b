package plan

import (
	"bytes"
	"strings"
	"unicode"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
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
}

// overview is the plan's phase overview table.
type overview struct {
	line                               int
	hasName, hasPar, hasEst, hasStatus bool
	rows                               []*tableRow
	blankIDs                           []int // lines of rows with cells but no id
}

// findOverview returns the first table whose header has Phase and Depends
// On columns, or nil. Later tables are left alone: they belong to the
// document (a section may well hold a table of its own).
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

// readTable reads table as an overview table, or returns nil if its header
// lacks the Phase or Depends On column.
func (d *doc) readTable(table *east.Table) *overview {
	var cols []column
	seen := map[column]bool{}
	ov := &overview{line: d.nodeLine(table)}
	for n := table.FirstChild(); n != nil; n = n.NextSibling() {
		if header, ok := n.(*east.TableHeader); ok {
			ov.line = d.nodeLine(header)
			for c := header.FirstChild(); c != nil; c = c.NextSibling() {
				// "Depends On (ids)", "Estimate (pts)": an aside is no part
				// of the column's name.
				col := headerColumns[letters(dropParentheticals(d.plainText(c)))]
				if seen[col] {
					col = colOther // The first column of a kind wins.
				}
				seen[col] = true
				cols = append(cols, col)
			}
			break
		}
	}
	if !seen[colPhase] || !seen[colDeps] {
		return nil
	}
	ov.hasName, ov.hasPar = seen[colName], seen[colParallel]
	ov.hasEst, ov.hasStatus = seen[colEstimate], seen[colStatus]
	for n := table.FirstChild(); n != nil; n = n.NextSibling() {
		row, ok := n.(*east.TableRow)
		if !ok {
			continue
		}
		d.readRow(ov, row, cols)
	}
	return ov
}

// readRow adds one body row to ov. Empty rows and "Total" rows (people sum
// estimates in the last row) are not phases, nor is a line without a pipe:
// GFM continues a table over the next line that is not blank, so a
// sentence written just below a table would otherwise become a row.
func (d *doc) readRow(ov *overview, row *east.TableRow, cols []column) {
	line := d.nodeLine(row)
	if !bytes.ContainsRune(d.lineText(line), '|') {
		return
	}
	cells := map[column]string{}
	anything := false
	i := 0
	for c := row.FirstChild(); c != nil && i < len(cols); c = c.NextSibling() {
		text := d.plainText(c)
		if text != "" {
			anything = true
		}
		if cols[i] != colOther {
			cells[cols[i]] = text
		}
		i++
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
		par:      parseRefs(cells[colParallel], line),
		estimate: cleanCell(cells[colEstimate]),
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
