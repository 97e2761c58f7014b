package proc

import "bytes"

// LineMode says which lines of one read of a process's output are handed
// to Spec.OnLine. The raw bytes always reach Spec.Output and the tail.
type LineMode int

const (
	// LinesAll: every line, in order (the default).
	LinesAll LineMode = iota
	// LinesLast: only the last complete line of the read (the lines
	// before it are in the log): enough for a consumer that shows the
	// latest line, at the cost of one line per read however fast the
	// process prints.
	LinesLast
	// LinesNone: no line; nobody shows them.
	LinesNone
)

// skipLines consumes p without handing out a line, keeping the partial
// line's boundary: when lines are wanted again, the first one handed out
// starts at the beginning of a line, never in its middle.
func (s *sink) skipLines(p []byte) {
	i := bytes.LastIndexByte(p, '\n')
	if i < 0 {
		s.partial = appendCapped(s.partial, p)
		return
	}
	s.partial = appendCapped(s.partial[:0], p[i+1:])
}

// lastLine returns the part of p that holds its last complete line and
// what follows it, dropping the complete lines before it (the bytes of an
// unfinished line carried over from the previous read go with them).
func (s *sink) lastLine(p []byte) []byte {
	end := bytes.LastIndexByte(p, '\n')
	if end < 0 {
		return p // no line ends in this read: keep building the partial one
	}
	start := bytes.LastIndexByte(p[:end], '\n')
	if start < 0 {
		return p // one line ends here: the partial one, completed
	}
	s.partial = s.partial[:0]
	return p[start+1:]
}

// appendCapped appends p to partial, keeping at most maxLine bytes: a
// skipped line's length does not matter, only that its end is found.
func appendCapped(partial, p []byte) []byte {
	if room := maxLine - len(partial); len(p) > room {
		p = p[len(p)-max(room, 0):]
	}
	return append(partial, p...)
}
