package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/autobuild-sh/autobuild/internal/textwrap"
)

// Width helpers for plain (unstyled) text; cells, not bytes.

// width is the display width of plain s, with a fast path for ASCII: the
// grapheme segmentation behind ansi.StringWidth dominated the rendering of
// large plans.
func width(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] == 0x1b {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// truncate cuts s to w cells, ending with "…" when it had to cut.
func truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if width(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// padRight pads s with spaces to w cells (s is not cut).
func padRight(s string, w int) string {
	n := width(s)
	if n >= w {
		return s
	}
	return s + strings.Repeat(" ", w-n)
}

// padLeft right-aligns s in w cells.
func padLeft(s string, w int) string {
	n := width(s)
	if n >= w {
		return s
	}
	return strings.Repeat(" ", w-n) + s
}

// fit makes s exactly w cells wide.
func fit(s string, w int) string { return padRight(truncate(s, w), w) }

// spread puts left and right on one line of w cells, cutting left first.
func spread(left, right string, w int) string {
	rw := width(right)
	if rw >= w {
		return truncate(right, w)
	}
	left = truncate(left, w-rw-1)
	return padRight(left, w-rw) + right
}

// wrapWords breaks plain s into lines of at most w cells between words, as
// textwrap.Words does (never at a hyphen, so a command line stays
// copyable), after collapsing its runs of spaces: a notice is prose, not
// aligned output. At most n lines are returned, the last ending with "…"
// when text was left out.
func wrapWords(s string, w, n int) []string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" || w <= 0 || n <= 0 {
		return nil
	}
	lines := textwrap.Words(s, w, 0)
	if len(lines) > n {
		lines = lines[:n]
		if last := lines[n-1]; width(last)+2 <= w {
			lines[n-1] = last + " …"
		} else {
			lines[n-1] = ansi.Cut(last, 0, w-1) + "…"
		}
	}
	return lines
}
