package metrics

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// column is one column of a text table. A column with drop > 0 goes when
// the table is too wide (the highest first); the flex column is cut to fit.
type column struct {
	title string
	right bool
	drop  int
	flex  bool
}

// table lays rows out in at most width columns, two spaces apart, indented
// by two. Cells are plain text (the caller sanitizes them).
func table(cols []column, rows [][]string, width int) []string {
	keep := make([]bool, len(cols))
	for i := range keep {
		keep[i] = true
	}
	widths := make([]int, len(cols))
	for i, c := range cols {
		widths[i] = ansi.StringWidth(c.title)
		for _, r := range rows {
			widths[i] = max(widths[i], ansi.StringWidth(r[i]))
		}
	}
	total := func() int {
		n := 2
		for i := range cols {
			if keep[i] {
				n += widths[i] + 2
			}
		}
		return n - 2
	}
	for total() > width {
		worst := -1
		for i, c := range cols {
			if keep[i] && c.drop > 0 && (worst < 0 || c.drop > cols[worst].drop) {
				worst = i
			}
		}
		if worst < 0 {
			break
		}
		keep[worst] = false
	}
	if over := total() - width; over > 0 {
		for i, c := range cols {
			if keep[i] && c.flex {
				widths[i] = max(4, widths[i]-over)
			}
		}
	}
	line := func(cells []string) string {
		var b strings.Builder
		b.WriteString("  ")
		first := true
		for i, c := range cols {
			if !keep[i] {
				continue
			}
			if !first {
				b.WriteString("  ")
			}
			first = false
			cell := ansi.Truncate(cells[i], widths[i], "…")
			pad := strings.Repeat(" ", widths[i]-ansi.StringWidth(cell))
			if c.right {
				b.WriteString(pad + cell)
			} else {
				b.WriteString(cell + pad)
			}
		}
		return strings.TrimRight(b.String(), " ")
	}
	titles := make([]string, len(cols))
	for i, c := range cols {
		titles[i] = c.title
	}
	out := []string{line(titles)}
	for _, r := range rows {
		out = append(out, line(r))
	}
	return out
}
