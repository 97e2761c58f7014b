package tui

import (
	"strings"

	clean "github.com/autobuild-sh/autobuild/internal/sanitize"
)

// maxLineBytes caps one stored output line: a phase that prints a gigabyte on
// one line must not hold a gigabyte in memory.
const maxLineBytes = 2048

// ring keeps the last lines of a phase's output. Memory is bounded by its
// capacity times maxLineBytes however much the phase prints.
type ring struct {
	capacity int
	buf      []string // grows lazily up to capacity: 500 idle phases cost little
	start    int      // index in buf of the oldest line once buf is full
	total    int64    // lines ever added, so a position survives rotation
}

func newRing(capacity int) *ring {
	return &ring{capacity: max(capacity, 1)}
}

// add appends a line, made safe to draw first, dropping the oldest when full.
func (r *ring) add(line string) {
	line = sanitize(line)
	r.total++
	if len(r.buf) < r.capacity {
		if len(r.buf) == cap(r.buf) {
			// Grow by doubling, but never past the capacity.
			grown := make([]string, len(r.buf), min(r.capacity, max(16, 2*cap(r.buf))))
			copy(grown, r.buf)
			r.buf = grown
		}
		r.buf = append(r.buf, line)
		return
	}
	r.buf[r.start] = line
	r.start = (r.start + 1) % len(r.buf)
}

// len is the number of lines held.
func (r *ring) len() int { return len(r.buf) }

// at returns the i-th oldest line held.
func (r *ring) at(i int) string { return r.buf[(r.start+i)%len(r.buf)] }

// first is the absolute number (0-based, over everything ever added) of the
// oldest line held.
func (r *ring) first() int64 { return r.total - int64(len(r.buf)) }

// last returns the newest line, or "".
func (r *ring) last() string {
	if len(r.buf) == 0 {
		return ""
	}
	return r.at(len(r.buf) - 1)
}

// reset forgets every line.
func (r *ring) reset() {
	r.buf, r.start, r.total = nil, 0, 0
}

// sanitize makes an output line safe to draw: it is clipped to maxLineBytes,
// then cleaned by package sanitize (an agent's colors or cursor moves must
// not reach our screen).
func sanitize(s string) string {
	if len(s) > maxLineBytes {
		cut := maxLineBytes
		// Back up to a rune boundary so the cut never splits a character.
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		// Copying lets the huge original be collected.
		s = strings.Clone(s[:cut]) + "…"
	}
	if strings.IndexFunc(s, isControl) < 0 {
		return s
	}
	return strings.ReplaceAll(clean.Line(s), "\t", "    ")
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }
