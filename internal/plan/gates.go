package plan

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/yuin/goldmark/ast"
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
var gateItem = regexp.MustCompile(`^([\pL][\pL \-]{0,30}?)\s*:\s*(.*)$`)

// readGates reads the list items of the plan's Quality Gates sections:
// "- test: `go test ./...`", "- **lint**: golangci-lint run". Every
// top-level item must be a gate; other text in the section is prose.
func (b *builder) readGates(sections []*gatesSection) {
	firstLine := map[string]int{}
	for _, g := range sections {
		for _, n := range b.doc.blocks[g.first+1 : g.end] {
			list, ok := n.(*ast.List)
			if !ok {
				continue
			}
			for item := list.FirstChild(); item != nil; item = item.NextSibling() {
				b.readGateItem(item, firstLine)
			}
		}
	}
}

// readGateItem reads one list item of a Quality Gates section.
func (b *builder) readGateItem(item ast.Node, firstLine map[string]int) {
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
	m := gateItem.FindStringSubmatch(text)
	if m == nil {
		b.problem(line, CodePlanInvalid, fmt.Sprintf("quality gate %q is not written as \"kind: command\"", text))
		return
	}
	written := strings.TrimSpace(m[1])
	kind, ok := gateKindNames[letters(written)]
	if !ok {
		b.problem(line, CodePlanInvalid, fmt.Sprintf("unknown quality gate kind %q (want build, lint, format, typecheck or test)", written))
		return
	}
	command := gateCommand(m[2])
	if command == "" {
		b.problem(line, CodePlanInvalid, fmt.Sprintf("quality gate %q has no command", written))
		return
	}
	if first, dup := firstLine[kind]; dup {
		b.problem(line, CodePlanInvalid, fmt.Sprintf("duplicate quality gate %q (first defined at line %d)", kind, first))
		return
	}
	firstLine[kind] = line
	b.plan.Gates = append(b.plan.Gates, Gate{Kind: kind, Command: command, Line: line})
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
