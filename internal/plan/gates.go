package plan

import (
	"fmt"
	"strings"

	"github.com/yuin/goldmark/ast"

	"github.com/autobuild-sh/autobuild/internal/lazyre"
)

// gateKindNames maps what people write (letters only) to a gate kind.
var gateKindNames = map[string]string{
	"build": "build", "compile": "build",
	"typecheck": "typecheck", "types": "typecheck", "typechecking": "typecheck",
	"lint": "lint", "linting": "lint", "linter": "lint",
	"format": "format", "fmt": "format", "formatting": "format", "formatter": "format",
	"test": "test", "tests": "test", "testing": "test",
}

// gateItem matches "test: cmd" once bold markers are gone; the key is a
// short run of words.
var gateItem = lazyre.New(`^([\pL][\pL\pN _\-]{0,30}?)\s*:\s*(.*)$`)

// readGates reads the list items of the plan's Quality Gates sections:
// "- test: `go test ./...`", "- **lint**: golangci-lint run". Every
// top-level item must be a gate; other text in the section is prose.
func (b *builder) readGates(sections []*gatesSection) {
	seen := map[string]bool{} // gate kinds read so far
	for _, g := range sections {
		for _, n := range b.doc.blocks[g.first+1 : g.end] {
			list, ok := n.(*ast.List)
			if !ok {
				continue
			}
			for item := list.FirstChild(); item != nil; item = item.NextSibling() {
				b.readGateItem(item, seen)
			}
		}
	}
}

// readGateItem reads one list item of a Quality Gates section.
func (b *builder) readGateItem(item ast.Node, seen map[string]bool) {
	block := item.FirstChild()
	if block == nil {
		return
	}
	lines := b.doc.rawLines(block)
	if len(lines) == 0 {
		return
	}
	line := lines[0].line
	var texts []string
	for _, l := range lines {
		texts = append(texts, l.text)
	}
	raw := strings.Join(texts, " ")
	text := strings.TrimSpace(boldMarkup.Replace(raw))
	text = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(text, "[ ]"), "[x]"), "[X]"))
	m := gateItem().FindStringSubmatch(text)
	if m == nil {
		b.problem(line, CodePlanInvalid, fmt.Sprintf("quality gate %q is not written as \"kind: command\"", text))
		return
	}
	written := strings.TrimSpace(m[1])
	kind, ok := gateKind(written)
	if !ok {
		b.problem(line, CodePlanInvalid, fmt.Sprintf("unknown quality gate kind %q (want build, lint, format, typecheck or test)", written))
		return
	}
	command := gateCommand(m[2])
	if command == "" {
		b.problem(line, CodePlanInvalid, fmt.Sprintf("quality gate %q has no command", written))
		return
	}
	if seen[kind] {
		// Unit and end-to-end tests, say: both must pass, so they run as one
		// gate of their kind, in plan order. A gate per kind keeps the state
		// file's quality_gates (keyed by kind) and the classification (the
		// kind gives the failure type) as they are.
		for i := range b.plan.Gates {
			if b.plan.Gates[i].Kind == kind {
				b.plan.Gates[i].Command += " && " + command
			}
		}
		return
	}
	seen[kind] = true
	b.plan.Gates = append(b.plan.Gates, Gate{Kind: kind, Command: command, Line: line})
}

// gateKind reads the kind of a gate from what the plan calls it: "test",
// "**Lint**", "Type check", or a name whose last word says it ("Unit tests",
// "E2E tests", "Go build").
func gateKind(written string) (string, bool) {
	if kind, ok := gateKindNames[letters(written)]; ok {
		return kind, true
	}
	words := strings.FieldsFunc(written, func(r rune) bool { return r == ' ' || r == '-' || r == '_' })
	for i := len(words) - 1; i >= 0; i-- {
		if kind, ok := gateKindNames[letters(words[i])]; ok {
			return kind, true
		}
	}
	return "", false
}

// gateCommand takes the command out of the rest of a gate item: the first
// code span if there is one (its backtick run may be doubled to allow a
// backtick inside), else the text as written.
func gateCommand(s string) string {
	s = strings.TrimSpace(s)
	start := strings.IndexByte(s, '`')
	if start < 0 {
		return s
	}
	ticks := 1
	for start+ticks < len(s) && s[start+ticks] == '`' {
		ticks++
	}
	fence := strings.Repeat("`", ticks)
	rest := s[start+ticks:]
	end := strings.Index(rest, fence)
	if end < 0 {
		return strings.TrimSpace(strings.Trim(s, "`"))
	}
	return strings.TrimSpace(rest[:end])
}
