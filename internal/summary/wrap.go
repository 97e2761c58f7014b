package summary

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// tabWidth is the tab stop used when gate output is laid out in the box.
const tabWidth = 8

// cleanLine makes one line of tool output safe to lay out in a fixed-width
// box: colour codes go, a carriage return keeps what a terminal would have
// shown last (progress bars), tabs become spaces to the next tab stop, and
// other control characters are dropped. Left in, any of them would make the
// line's printed width differ from its measured one and break the border.
func cleanLine(s string) string {
	s = ansi.Strip(s)
	if i := strings.LastIndexByte(strings.TrimRight(s, "\r"), '\r'); i >= 0 {
		s = s[i+1:]
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		switch {
		case r == '\t':
			n := tabWidth - col%tabWidth
			b.WriteString(strings.Repeat(" ", n))
			col += n
		case r < 0x20 || r == 0x7f:
			// Dropped: not printable.
		default:
			b.WriteRune(r)
			col += ansi.StringWidth(string(r))
		}
	}
	return b.String()
}

// wrapWords breaks one line of text into lines of at most width columns;
// lines after the first get at most width-indent columns (the caller indents
// them). It breaks only at spaces, so commands and paths stay whole and can
// be read and copied; the spacing inside a line is kept. Only a word longer
// than a whole line is broken: after its last '/' that fits, else at the
// width.
func wrapWords(s string, width, indent int) []string {
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
