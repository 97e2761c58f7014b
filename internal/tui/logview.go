package tui

import (
	"strings"
	"unicode"
)

// content is what the detail pane scrolls through: the phase's log tail,
// then extra lines (its gates, its failure report). Lines are numbered
// absolutely (see ring.first), so a position stays put while the ring
// rotates under a paused view.
type content struct {
	log   *ring
	extra []string
}

func (c content) start() int64 { return c.log.first() }
func (c content) end() int64   { return c.log.total + int64(len(c.extra)) }

func (c content) line(abs int64) string {
	if abs < c.log.total {
		return c.log.at(int(abs - c.log.first()))
	}
	return c.extra[abs-c.log.total]
}

// logView is the detail pane's scroll and search state. Follow mode keeps
// the newest line in view; scrolling up pauses it, G or End resumes it.
type logView struct {
	follow bool
	top    int64 // first visible line when not following
	xoff   int   // horizontal scroll, in cells
	query  string
	cur    int64 // the current match's line, -1 for none
	count  int   // matches when the search was last run
}

func (v *logView) reset() { *v = logView{follow: true, cur: -1} }

// topFor is the first line to show, h lines high.
func (v *logView) topFor(c content, h int) int64 {
	last := max(c.start(), c.end()-int64(h))
	if v.follow {
		return last
	}
	return max(c.start(), min(v.top, last))
}

// scroll moves the view by n lines (negative is up). Reaching the bottom
// resumes follow mode, like `less +F`.
func (v *logView) scroll(c content, h, n int) {
	top := v.topFor(c, h) + int64(n)
	last := max(c.start(), c.end()-int64(h))
	v.follow = top >= last
	v.top = max(c.start(), min(top, last))
}

func (v *logView) home(c content) { v.follow, v.top = false, c.start() }

// setQuery starts a search and jumps to the first match at or after the
// view.
func (v *logView) setQuery(q string, c content, h int) {
	v.query, v.cur, v.count = q, -1, 0
	if q == "" {
		return
	}
	for i := c.start(); i < c.end(); i++ {
		if matches(c.line(i), q) {
			v.count++
		}
	}
	v.cur = v.topFor(c, h) - 1
	v.next(c, h, 1)
}

// tally is the current match's position among the matches (1-based; 0 when
// there is none) and their number.
func (v *logView) tally(c content) (pos, count int) {
	if v.query == "" {
		return 0, 0
	}
	for i := c.start(); i < c.end(); i++ {
		if matches(c.line(i), v.query) {
			count++
			if i == v.cur {
				pos = count
			}
		}
	}
	return pos, count
}

// next moves to the next (dir 1) or previous (dir -1) matching line,
// wrapping around, and centers it.
func (v *logView) next(c content, h, dir int) {
	if v.query == "" {
		return
	}
	n := c.end() - c.start()
	if n <= 0 {
		return
	}
	from := v.cur
	if from < c.start() || from >= c.end() {
		from = v.topFor(c, h) - int64(dir)
	}
	for step := int64(1); step <= n; step++ {
		i := c.start() + ((from-c.start()+int64(dir)*step)%n+n)%n
		if matches(c.line(i), v.query) {
			v.cur = i
			v.follow = false
			v.top = i - int64(h/2)
			v.top = max(c.start(), min(v.top, max(c.start(), c.end()-int64(h))))
			return
		}
	}
	v.cur = -1
}

// matches reports whether line contains q, ignoring case unless q has an
// upper-case letter ("smart case", as in less and vim).
func matches(line, q string) bool {
	if hasUpper(q) {
		return strings.Contains(line, q)
	}
	return strings.Contains(strings.ToLower(line), q)
}

// matchRanges returns the byte ranges of q in line, in the same smart case.
func matchRanges(line, q string) [][2]int {
	hay := line
	if !hasUpper(q) {
		hay = strings.ToLower(line)
		if len(hay) != len(line) {
			// Lower-casing changed byte offsets: no highlight rather than
			// a wrong one.
			return nil
		}
	}
	var out [][2]int
	for off := 0; q != ""; {
		i := strings.Index(hay[off:], q)
		if i < 0 {
			break
		}
		out = append(out, [2]int{off + i, off + i + len(q)})
		off += i + len(q)
	}
	return out
}

func hasUpper(s string) bool { return strings.IndexFunc(s, unicode.IsUpper) >= 0 }
