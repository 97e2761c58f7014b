package sanitize

import (
	"strings"
	"unicode/utf8"
)

// Frame cleans a whole rendered screen whose styling autobuild made itself
// (Lip Gloss colours, SGR sequences), while its text came from plans and
// agents: every escape sequence other than SGR (CSI … m) is removed, and so
// is every control character but the newline. It is the net under the
// terminal UI's frame, for text that reached a view without going through
// Line first.
func Frame(s string) string {
	if !needsFrameCleaning(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			n, keep := escapeLen(s[i:])
			if keep {
				b.WriteString(s[i : i+n])
			}
			i += n
		case c == '\n':
			b.WriteByte(c)
			i++
		case c < 0x20 || c == 0x7f:
			i++
		case c < 0x80:
			b.WriteByte(c)
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError && !dropped(r) {
				b.WriteString(s[i : i+size])
			}
			i += size
		}
	}
	return b.String()
}

// needsFrameCleaning reports whether s holds anything Frame would change:
// the common frame has colours only, and is returned as it is.
func needsFrameCleaning(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			n, keep := escapeLen(s[i:])
			if !keep {
				return true
			}
			i += n
		case c == '\n':
			i++
		case c < 0x20 || c == 0x7f:
			return true
		case c < 0x80:
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError || dropped(r) {
				return true
			}
			i += size
		}
	}
	return false
}

// escapeLen returns the length of the escape sequence at the start of s
// (which starts with ESC) and whether it is an SGR sequence, kept in a
// frame. An unterminated sequence runs to the end of s.
func escapeLen(s string) (int, bool) {
	if len(s) < 2 {
		return len(s), false
	}
	switch s[1] {
	case '[': // CSI: parameters and intermediates, then a final byte
		for j := 2; j < len(s); j++ {
			if s[j] >= 0x40 && s[j] <= 0x7e {
				return j + 1, s[j] == 'm'
			}
			if s[j] < 0x20 || s[j] > 0x7e {
				return j, false
			}
		}
		return len(s), false
	case ']', 'P', 'X', '^', '_': // OSC, DCS, SOS, PM, APC: up to BEL or ST
		for j := 2; j < len(s); j++ {
			if s[j] == 0x07 {
				return j + 1, false
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2, false
			}
		}
		return len(s), false
	}
	return 2, false
}
