// Package sanitize is the one place where text from a plan, an agent or a
// log is made safe before it reaches a terminal or a git commit: escape
// sequences (colours, but also OSC 52 clipboard writes, OSC 0 window titles,
// CSI 2J screen clears) are removed, a carriage return keeps only what a
// terminal would have shown last, control characters (NUL, BEL, C1) and
// bidirectional overrides are dropped, and so is invalid UTF-8. Tabs
// stay (they are harmless); ExpandTabs turns them into spaces where widths
// are measured. Every printer, the status command, the execution log, the
// window title and the commit message go through it.
package sanitize

import (
	"io"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// TabWidth is the tab stop Line expands tabs to.
const TabWidth = 8

// Line makes one line of text safe to print: what remains is printable
// runes, spaces and tabs only, so nothing in it can drive the terminal. A newline inside s is dropped
// like any other control character; use Text to keep line breaks.
func Line(s string) string {
	s = ansi.Strip(s)
	if i := strings.LastIndexByte(strings.TrimRight(s, "\r"), '\r'); i >= 0 {
		s = s[i+1:]
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r == '\t':
			b.WriteByte('\t')
		case dropped(r):
			// Not printable, or reorders what is shown around it.
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ExpandTabs replaces each tab of a sanitized line by spaces to the next
// tab stop (every TabWidth columns), for layouts that measure widths.
func ExpandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		if r == '\t' {
			n := TabWidth - col%TabWidth
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col += ansi.StringWidth(string(r))
	}
	return b.String()
}

// Text is Line for each line of s: the line breaks stay, everything else
// that Line removes goes. A CRLF counts as one line break.
func Text(s string) string {
	if s == "" {
		return ""
	}
	parts := strings.Split(s, "\n")
	for i, p := range parts {
		parts[i] = Line(strings.TrimSuffix(p, "\r"))
	}
	return strings.Join(parts, "\n")
}

// dropped reports whether r is a control character (C0, DEL, C1) or a
// bidirectional control, which could make a line read differently from
// what it holds ("Trojan source").
func dropped(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return false
}

// Writer passes whatever is written to it through Text. Each Write must
// hold whole lines (as one fmt.Fprintf per line does): an escape sequence
// split across two writes is not recognized as one.
type Writer struct{ W io.Writer }

// Write writes Text(p) to the underlying writer and reports len(p), so a
// caller sees its whole line accepted.
func (w Writer) Write(p []byte) (int, error) {
	if _, err := io.WriteString(w.W, Text(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
