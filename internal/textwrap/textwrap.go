// Package textwrap lays out plain text in a fixed number of terminal
// columns: it breaks lines only at spaces, so commands and paths stay whole
// and can be copied, and it cleans tool output of what would make a line's
// printed width differ from its measured one. The halt summary's box and the
// terminal UI's notices both wrap with it.
package textwrap

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/autobuild-sh/autobuild/internal/sanitize"
)

// TabWidth is the tab stop CleanLine expands tabs to.
const TabWidth = sanitize.TabWidth

// CleanLine makes one line of tool output safe to lay out in a fixed width:
// sanitize.Line, the one cleaner of text from plans, agents and logs, with
// its tabs expanded to spaces.
// Left in, an escape or control character would make the line's printed
// width differ from its measured one and break a border.
func CleanLine(s string) string { return sanitize.ExpandTabs(sanitize.Line(s)) }

// Words breaks one line of plain text into lines of at most width columns;
// lines after the first get at most width-indent columns (the caller indents
// them). It breaks only at spaces, never at a hyphen, so commands and paths
// stay whole and can be read and copied; the spacing inside a line is kept,
// the spaces at a break are dropped. Only a word longer than a whole line is
// broken: after its last '/' that fits, else at the width.
//
// Every line holds at least one character, so Words always ends: a rune
// wider than the line (a double-width rune in one column) goes out alone,
// wider than asked. The result has at least one line ("" for empty s).
func Words(s string, width, indent int) []string {
	limit := width
	var lines []string
	line := ""
	emit := func() {
		lines = append(lines, strings.TrimRight(line, " "))
		line = ""
		limit = max(width-indent, 1)
	}
	for _, tok := range tokens(s) {
		blank := strings.TrimLeft(tok, " ") == ""
		switch {
		case blank && line == "" && len(lines) > 0:
			// Spaces at a break are the break itself.
		case ansi.StringWidth(line)+ansi.StringWidth(tok) <= limit:
			line += tok
		case blank:
			emit()
		default:
			if strings.TrimLeft(line, " ") != "" {
				emit()
			}
			for ansi.StringWidth(line)+ansi.StringWidth(tok) > limit {
				head := cutWord(tok, limit-ansi.StringWidth(line))
				line += head
				tok = tok[len(head):]
				emit()
			}
			line += tok
		}
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}

// tokens splits s into alternating runs of spaces and of other characters.
func tokens(s string) []string {
	var out []string
	start := 0
	for i := 1; i <= len(s); i++ {
		if i == len(s) || (s[i] == ' ') != (s[start] == ' ') {
			out = append(out, s[start:i])
			start = i
		}
	}
	return out
}

// cutWord returns the longest head of word that fits in n columns, ending
// after a '/' when one fits (paths break between their parts), and at least
// one character so that wrapping always advances.
func cutWord(word string, n int) string {
	head := ansi.Truncate(word, max(n, 1), "")
	if head == "" {
		_, size := utf8.DecodeRuneInString(word)
		return word[:size]
	}
	if i := strings.LastIndexByte(head, '/'); i > 0 && i < len(head)-1 {
		return head[:i+1]
	}
	return head
}
