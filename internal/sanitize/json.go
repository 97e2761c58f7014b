package sanitize

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// JSONWriter passes encoded JSON to W with every control character and
// bidirectional control that encoding/json leaves raw (DEL, C1 controls
// such as U+009B, the one-byte CSI of some terminals, and overrides such
// as U+202E) written as a \uXXXX escape: a JSON line printed on a terminal
// cannot drive it or reorder what it shows, and a JSON reader gets the
// same string. Such runes only occur inside JSON strings, where the escape
// means the same. Each Write must hold whole values, as json.Encoder's do.
type JSONWriter struct{ W io.Writer }

// Write writes p with those runes escaped and reports len(p).
func (w JSONWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(w.W, EscapeJSON(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// EscapeJSON is what JSONWriter writes for s.
func EscapeJSON(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return r >= 0x7f && dropped(r) })
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if r >= 0x7f && dropped(r) && r != utf8.RuneError {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
