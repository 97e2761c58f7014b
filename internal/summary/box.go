package summary

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/autobuild-sh/autobuild/internal/textwrap"
)

// box accumulates the lines of a double-ruled box of a fixed outer width.
// Text is wrapped to fit, never cut, so nothing is lost on a narrow screen.
type box struct {
	inner int // width between "║ " and " ║"
	lines []string
}

func newBox(width int) *box {
	if width < 40 {
		width = 40
	}
	return &box{inner: width - 4}
}

func (b *box) rule(left, fill, right string) {
	b.lines = append(b.lines, left+strings.Repeat(fill, b.inner+2)+right)
}

// Every row is cleaned: a phase name or a path with an escape sequence
// (`ESC c`, an OSC 52 clipboard write, U+202E) prints as text.
func (b *box) row(s string) {
	b.lines = append(b.lines, "║ "+pad(textwrap.CleanLine(s), b.inner)+" ║")
}

// text adds s wrapped to the box at spaces; every line but the first
// (wrapped, or after a newline in s) is indented by indent. Each line of s
// is cleaned of what would break the border (tabs, colour codes, control
// characters) and keeps its own leading spaces.
func (b *box) text(s string, indent int) {
	for n, para := range strings.Split(s, "\n") {
		// Only the very first line of s starts at the box's edge.
		width, indented := b.inner, b.inner-indent
		if n > 0 {
			width = indented
		}
		for i, l := range textwrap.Words(textwrap.CleanLine(para), width, width-indented) {
			if i > 0 || n > 0 {
				l = strings.Repeat(" ", indent) + l
			}
			b.row(l)
		}
	}
}

func (b *box) blank() { b.row("") }

func (b *box) center(s string) {
	w := ansi.StringWidth(s)
	left := (b.inner - w) / 2
	if left < 0 {
		left = 0
	}
	b.row(strings.Repeat(" ", left) + s)
}

// section adds a titled section separator.
func (b *box) section(title string) {
	b.blank()
	b.row(title)
	b.row(strings.Repeat("─", min(b.inner, 60)))
}

// dotted writes "label ........ status" filling the line with dots.
func (b *box) dotted(label, status string) {
	lw, sw := ansi.StringWidth(label), ansi.StringWidth(status)
	dots := b.inner - lw - sw - 2
	if dots < 3 {
		b.text(label, 2)
		b.row(strings.Repeat(" ", max(0, b.inner-sw)) + status)
		return
	}
	b.row(label + " " + strings.Repeat(".", dots) + " " + status)
}

func (b *box) String() string { return strings.Join(b.lines, "\n") + "\n" }

func pad(s string, w int) string {
	n := ansi.StringWidth(s)
	if n >= w {
		return s
	}
	return s + strings.Repeat(" ", w-n)
}
