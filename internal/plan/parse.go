package plan

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/sanitize"
)

// ParseFile reads and parses the plan at path. A plan with problems is
// returned as far as it could be read, together with a *ValidationError.
func ParseFile(path string) (*Plan, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read plan: %w", err)
	}
	return parseGuarded(path, src, newLinkReader(path))
}

// Parse parses a plan's source; path names it in problems and gives the
// title when the plan has no H1. A plan with problems is returned as far as
// it could be read, together with a *ValidationError listing every problem.
// Warnings alone are not an error: they are in Plan.Warnings.
//
// Phase files linked from the table are not read (Phase.BodyFile names
// them); ParseFile reads them.
func Parse(path string, src []byte) (p *Plan, err error) {
	return parseGuarded(path, src, nil)
}

// parseGuarded is parse with a guard against panics.
func parseGuarded(path string, src []byte, read linkReader) (p *Plan, err error) {
	defer func() {
		// The parser is fuzzed not to panic; should it still, the user gets
		// an invalid plan rather than a crash.
		if r := recover(); r != nil {
			p = &Plan{Path: path, Title: filepath.Base(path), src: src}
			err = &ValidationError{Problems: []Problem{{
				File: path, Line: 1, Code: CodePlanInvalid,
				Message: fmt.Sprintf("internal error reading the plan: %v", r),
			}}}
		}
	}()
	p, err = parse(path, src, read)
	cleanNames(p)
	return p, err
}

// cleanNames makes the plan's title and its phases' names and display ids
// plain text (sanitize.Line): they are printed by validate, --dry-run,
// the printers, the UI and the summary, and written into commits, so an
// escape sequence of the plan's (`ESC c`, an OSC 52 clipboard write, a
// U+202E override) is dropped once, here, for all of them.
func cleanNames(p *Plan) {
	if p == nil {
		return
	}
	p.Title = strings.TrimSpace(sanitize.Line(p.Title))
	for _, ph := range p.Phases {
		ph.Name = strings.TrimSpace(sanitize.Line(ph.Name))
		ph.DisplayID = phaseid.Display(sanitize.Line(string(ph.DisplayID)))
	}
}

// phaseSource is what a phase was read from, kept while the plan is built.
type phaseSource struct {
	phase *Phase
	row   *tableRow // nil for a phase that has only a section
	sec   *section  // nil for a phase that has only a row
	deps  refList
	par   refList
}

// builder carries one parse.
type builder struct {
	path     string
	doc      *doc
	plan     *Plan
	sources  []*phaseSource
	byID     map[phaseid.ID]*phaseSource
	problems []Problem
	// tableHasPar is set when the overview table has a Parallel With
	// column, so section metadata is compared with it.
	tableHasPar bool
}

// parse is Parse without the panic guard; the fuzz test calls it.
func parse(path string, src []byte, read linkReader) (*Plan, error) {
	b := &builder{
		path: path,
		doc:  newDoc(bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))),
		plan: &Plan{Path: path, src: src},
		byID: map[phaseid.ID]*phaseSource{},
	}
	ov := b.doc.findOverview()
	tableIDs := map[phaseid.ID]bool{}
	tableNames := map[phaseid.ID]string{}
	tableLine := 0
	if ov != nil {
		tableLine = ov.line
		for _, r := range ov.rows {
			tableIDs[r.t.id] = true
			if _, dup := tableNames[r.t.id]; !dup {
				tableNames[r.t.id] = r.name
			}
		}
	}
	out := b.doc.readOutline(tableLine, tableIDs, tableNames)
	b.plan.Title = out.title
	if b.plan.Title == "" {
		b.plan.Title = filepath.Base(path)
	}
	if ov == nil {
		msg := `no phase table found (need a table with "Phase" and "Depends On" columns)`
		line := 1
		if fenced := b.doc.fencedOverview(); fenced > 0 {
			line = fenced
			msg = fmt.Sprintf("no phase table found: the phase table at line %d is inside a code fence (```), so markdown shows it as code, not as a table; remove the fence lines around it", fenced)
		}
		b.problem(line, CodePlanInvalid, msg)
	} else {
		b.addRows(ov)
	}
	b.addSections(ov, out.sections)
	b.readLinked(read)
	b.warnNoBody()
	for _, src := range b.sources {
		b.plan.Phases = append(b.plan.Phases, src.phase)
	}
	b.readGates(out.gates)
	b.resolve()
	b.checkParallel()
	b.checkCycles()
	return b.finish()
}

// problem records an error at line.
func (b *builder) problem(line int, code, msg string) {
	b.problems = append(b.problems, Problem{File: b.path, Line: line, Code: code, Message: msg})
}

// warn records a warning at line.
func (b *builder) warn(line int, msg string) {
	b.plan.Warnings = append(b.plan.Warnings, Problem{
		File: b.path, Line: line, Code: CodePlanInvalid, Message: msg, Warning: true,
	})
}

// finish sorts the problems by line, indexes the plan's phases, now final,
// and returns the plan with its error.
func (b *builder) finish() (*Plan, error) {
	b.plan.idx.p.Store(newPlanIndex(b.plan.Phases))
	byLine := func(ps []Problem) {
		sort.SliceStable(ps, func(i, j int) bool { return ps[i].Line < ps[j].Line })
	}
	byLine(b.plan.Warnings)
	if len(b.problems) == 0 {
		return b.plan, nil
	}
	byLine(b.problems)
	return b.plan, &ValidationError{Problems: b.problems}
}

// addRows makes a phase of every table row, in table order.
func (b *builder) addRows(ov *overview) {
	b.plan.HasParallelColumn = ov.hasPar
	b.tableHasPar = ov.hasPar
	for _, line := range ov.blankIDs {
		b.problem(line, CodePlanInvalid, "table row has no phase id")
	}
	if len(ov.rows) == 0 {
		b.problem(ov.line, CodePlanInvalid, "the phase table lists no phases")
	}
	hinted := false
	for _, r := range ov.rows {
		if first, dup := b.byID[r.t.id]; dup {
			msg := fmt.Sprintf("duplicate phase id %q (first defined at line %d)", r.t.display, first.row.line)
			if ov.hint != "" && !hinted {
				msg += ": " + ov.hint
				hinted = true
			}
			b.problem(r.line, CodePlanInvalid, msg)
			continue
		}
		ph := &Phase{
			ID: r.t.id, DisplayID: r.t.display, Name: r.name,
			Estimate: r.estimate, Status: r.status, Line: r.line,
		}
		if ph.Name == "" {
			ph.Name = r.t.name
		}
		src := &phaseSource{phase: ph, row: r, deps: r.deps, par: r.par}
		b.sources = append(b.sources, src)
		b.byID[ph.ID] = src
	}
}

// addSections attaches each section to its row, or makes a phase of it
// (with a warning) when the table has no row for it.
func (b *builder) addSections(ov *overview, sections []*section) {
	seen := map[phaseid.ID]*section{}
	for _, s := range sections {
		if first, dup := seen[s.t.id]; dup {
			b.problem(s.line, CodePlanInvalid, fmt.Sprintf("duplicate phase id %q (first defined at line %d)", s.t.display, first.line))
			continue
		}
		src, inTable := b.byID[s.t.id]
		if !inTable && s.nestsPhases {
			// A heading grouping deeper phase headings, not a phase.
			continue
		}
		seen[s.t.id] = s
		if s.meta.par != nil {
			b.plan.HasParallelColumn = true
		}
		if inTable {
			b.attachSection(ov, src, s)
			continue
		}
		if ov != nil {
			b.warn(s.line, fmt.Sprintf("section %q is not in the phase table; it runs all the same, as a phase of its own", "Phase "+string(s.t.display)))
		}
		ph := &Phase{ID: s.t.id, DisplayID: s.t.display, Name: s.t.name}
		src = &phaseSource{phase: ph}
		if m := s.meta.deps; m != nil {
			src.deps = parseRefs(m.value, m.line)
		}
		if m := s.meta.par; m != nil {
			src.par = parseParallel(m.value, m.line)
		}
		b.sources = append(b.sources, src)
		b.byID[ph.ID] = src
		b.fillFromSection(src, s)
	}
}

// warnNoBody warns about each phase to run with no section and no linked
// file: its agent would get nothing but the table row, so a run refuses it.
func (b *builder) warnNoBody() {
	for _, src := range b.sources {
		// A phase the plan marks done never runs: it needs no body.
		if src.row != nil && src.phase.Body == "" && !src.phase.Done() {
			b.warn(src.row.line, fmt.Sprintf("phase %s has no body: no section (## Phase %s: …) and no linked file; "+
				"a run refuses it unless --allow-empty-phases", src.phase.DisplayID, src.phase.DisplayID))
		}
	}
}

// attachSection joins a section to its table row. The table decides
// dependencies; metadata that disagrees with it is a problem, checked in
// resolve once all ids are known.
func (b *builder) attachSection(ov *overview, src *phaseSource, s *section) {
	if !ov.hasPar && s.meta.par != nil {
		src.par = parseParallel(s.meta.par.value, s.meta.par.line)
	}
	if m := s.meta.status; m != nil {
		if st, said := parseStatus(m.value); said && src.row.statusSaid && st != src.row.status {
			b.problem(m.line, CodePlanInvalid, fmt.Sprintf("phase %s: section says %s %q but the table says %q (line %d)",
				src.phase.DisplayID, m.key, cleanCell(m.value), src.row.statusRaw, src.phase.Line))
		}
	}
	b.fillFromSection(src, s)
}

// fillFromSection takes what a section adds to its phase: body, tasks,
// files, and the name, estimate and status the table did not give.
func (b *builder) fillFromSection(src *phaseSource, s *section) {
	ph := src.phase
	src.sec = s
	ph.SectionLine = s.line
	ph.Body = s.body
	ph.Tasks, ph.TasksDone = s.tasks, s.done
	ph.Files = s.files
	if ph.Name == "" {
		ph.Name = s.t.name
	}
	if ph.Estimate == "" && s.meta.estimate != nil {
		ph.Estimate = cleanCell(s.meta.estimate.value)
	}
	if ph.Estimate == "" {
		ph.Estimate = s.t.estimate
	}
	if src.row == nil || !src.row.statusSaid {
		if m := s.meta.status; m != nil {
			if st, said := parseStatus(m.value); said {
				ph.Status = st
			}
		} else if s.t.status != StatusOpen && ph.Status == StatusOpen {
			ph.Status = s.t.status
		}
	}
}
