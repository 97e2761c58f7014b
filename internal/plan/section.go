package plan

import (
	"strings"
	"unicode"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"

	"github.com/autobuild-sh/autobuild/internal/lazyre"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// section is one phase's section of the plan: its heading, metadata and
// verbatim body.
type section struct {
	line, level int
	t           title
	// first and end index the doc's top-level blocks: the heading is
	// blocks[first], the body runs up to (not including) blocks[end].
	first, end int
	// nestsPhases is set when the section is ended by a deeper phase
	// heading: "## Phase 2" holding "### Phase 2A" and "### Phase 2B".
	nestsPhases bool
	body        string
	meta        sectionMeta
	tasks, done int
	files       []string
}

// gatesSection is a "## Quality Gates" section outside any phase.
type gatesSection struct {
	level, first, end int
}

// outline is what the top-level headings of a plan say.
type outline struct {
	title    string
	sections []*section
	gates    []*gatesSection
}

// gatesHeadings are the headings (letters only) of a quality gates section.
var gatesHeadings = map[string]bool{"qualitygates": true, "qualitygate": true, "gates": true}

// readOutline splits the document at its top-level headings. A phase
// section ends at the next heading of the same or a higher level, or at the
// next phase heading of any level: a body never holds another phase. A
// deeper heading naming the section's own phase ("#### Phase 2A checks")
// is part of the body. The first heading, when it is an H1 above the
// overview table, is the plan's title and never a phase.
//
// A heading may name a phase by its id alone ("### F1 — Schema", "## WU-01:
// Auth") when the id is in the table: for an id with a letter that is
// enough; a number ("### 1.1 Lexer errors") must also carry the table's
// name for it, so a numbered chapter ("## 1. Background") is no phase.
func (d *doc) readOutline(tableLine int, tableIDs map[phaseid.ID]bool, tableNames map[phaseid.ID]string) outline {
	var out outline
	var open *section
	var gates *gatesSection
	firstHeading := true
	for i, n := range d.blocks {
		h, ok := n.(*ast.Heading)
		if !ok {
			continue
		}
		text := d.plainText(h)
		line := d.nodeLine(h)
		isTitle := firstHeading && h.Level == 1 && (tableLine == 0 || line < tableLine)
		firstHeading = false
		if out.title == "" && h.Level == 1 {
			out.title = text
		}
		t, isPhase := parseTitle(text, true)
		if !isPhase {
			t, isPhase = idHeading(text, tableNames)
		}
		isPhase = isPhase && !isTitle && looksLikePhaseID(t.id, tableIDs)
		if isPhase && open != nil && h.Level > open.level && t.id == open.t.id {
			continue
		}
		if open != nil && (isPhase || h.Level <= open.level) {
			open.end = i
			open.nestsPhases = isPhase && h.Level > open.level
			d.finishSection(open)
			open = nil
		}
		if gates != nil && (isPhase || h.Level <= gates.level) {
			gates.end = i
			gates = nil
		}
		switch {
		case isPhase:
			open = &section{line: line, level: h.Level, t: t, first: i}
			out.sections = append(out.sections, open)
		case open == nil && gatesHeadings[letters(text)]:
			if gates != nil {
				// "## Quality Gates" under "# Gates": the outer section
				// ends where the inner one starts, so no item is read twice.
				gates.end = i
			}
			gates = &gatesSection{level: h.Level, first: i}
			out.gates = append(out.gates, gates)
		}
	}
	if open != nil {
		open.end = len(d.blocks)
		d.finishSection(open)
	}
	if gates != nil {
		gates.end = len(d.blocks)
	}
	return out
}

// finishSection reads a section's body, metadata, tasks and files once its
// extent is known.
func (d *doc) finishSection(s *section) {
	// A rule ("---") closing the section separates it from the next one;
	// it is not part of the phase's prompt.
	bodyEnd := s.end
	for bodyEnd > s.first+1 && d.blocks[bodyEnd-1].Kind() == ast.KindThematicBreak {
		bodyEnd--
	}
	endLine := 0
	if bodyEnd < len(d.blocks) {
		endLine = d.nodeLine(d.blocks[bodyEnd])
	}
	s.body = d.verbatim(s.line, endLine)
	d.scanBlocks(s, d.blocks[s.first+1:s.end], true)
}

// scanBlocks reads the tasks, files and, with meta, the metadata of a
// section's blocks. Metadata is only what stands at the top: the blocks
// before the first subheading, code or block that holds no metadata key. A
// blockquote further down ("> **Status:** Phase 5 is now substantially
// complete…") is prose of the body.
func (d *doc) scanBlocks(s *section, blocks []ast.Node, meta bool) {
	inPreamble := meta
	for _, n := range blocks {
		if h, ok := n.(*ast.Heading); ok {
			inPreamble = false
			if path, ok := d.filePath(h); ok {
				s.files = append(s.files, path)
			}
			continue
		}
		if inPreamble {
			found := false
			switch n.(type) {
			case *ast.Blockquote:
				found = s.meta.read(d.rawLines(n), false)
			case *ast.Paragraph, *ast.List:
				found = s.meta.read(d.rawLines(n), true)
			}
			inPreamble = found
		}
		_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
			if box, ok := c.(*east.TaskCheckBox); ok && entering {
				s.tasks++
				if box.IsChecked {
					s.done++
				}
			}
			return ast.WalkContinue, nil
		})
	}
}

// filePath reads a "File: path" heading. The path is the heading's first
// code span ("##### File: `src/config.ts` (MODIFY)", the superplan form),
// else the text after "File:" without a trailing aside ("(new)", "— tests").
func (d *doc) filePath(h *ast.Heading) (string, bool) {
	const prefix = "file:"
	text := d.plainText(h)
	if len(text) < len(prefix) || !strings.EqualFold(text[:len(prefix)], prefix) {
		return "", false
	}
	for c := h.FirstChild(); c != nil; c = c.NextSibling() {
		if code, ok := c.(*ast.CodeSpan); ok {
			if path := d.plainText(code); path != "" {
				return path, true
			}
		}
	}
	path := fileAside().ReplaceAllString(text[len(prefix):], "")
	path = strings.Trim(strings.TrimSpace(path), "`\"'")
	return path, path != ""
}

// fileAside is what people write after a file's path: "(CREATE)", "(new)",
// "— tests", "- optional". A parenthesis inside the path, as in Next.js's
// "app/(auth)/page.tsx", has no space before it and stays.
var fileAside = lazyre.New(`\s+(\(.*|[—–-]\s.*)$`)

// idHeading reads a heading that names a phase by its table id alone (see
// readOutline).
func idHeading(text string, tableNames map[phaseid.ID]string) (title, bool) {
	t, ok := parseTitle(text, false)
	if !ok {
		return title{}, false
	}
	name, inTable := tableNames[t.id]
	if !inTable {
		return title{}, false
	}
	if strings.ContainsFunc(string(t.id), unicode.IsLetter) {
		return t, true
	}
	a, b := letters(t.name), letters(name)
	if a == "" || b == "" {
		return title{}, false
	}
	return t, strings.HasPrefix(a, b) || strings.HasPrefix(b, a)
}
