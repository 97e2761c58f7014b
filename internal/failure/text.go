package failure

import (
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/autobuild-sh/autobuild/internal/lazyre"
)

// Excerpt bounds: a failing gate's output is kept as its last lines, so the
// report (and the phase file holding it) stays small.
const (
	excerptLines = 40
	excerptBytes = 4096
	// lineLimit bounds a single line quoted in a message or BlockedOn.
	lineLimit = 200
	// signalTailLines is how much of the end of the agent's output is read
	// for rate-limit, context and missing-command signals: such errors end
	// the output, while earlier lines may quote them harmlessly (an agent
	// writing a 429 handler, a tool the agent tried and did without).
	signalTailLines = 20
)

var ansiRE = lazyre.New(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]`)

// clean removes terminal escape sequences and carriage-return overwrites.
func clean(s string) string {
	s = ansiRE().ReplaceAllString(s, "")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

// Excerpt returns the tail of output: its last 40 lines, at most 4 KB,
// cut at a line (or at least a rune) boundary, with a marker when cut.
func Excerpt(output string) string {
	s := strings.TrimRight(clean(output), "\n \t")
	cut := false
	if len(s) > excerptBytes {
		s = s[len(s)-excerptBytes:]
		for len(s) > 0 && !utf8.RuneStart(s[0]) {
			s = s[1:]
		}
		if i := strings.IndexByte(s, '\n'); i >= 0 && i < len(s)-1 {
			s = s[i+1:]
		}
		cut = true
	}
	lines := strings.Split(s, "\n")
	if len(lines) > excerptLines {
		lines = lines[len(lines)-excerptLines:]
		cut = true
	}
	s = strings.Join(lines, "\n")
	if cut {
		s = "…\n" + s
	}
	return s
}

// nonEmptyLines returns the trimmed non-empty lines of s.
func nonEmptyLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// lastLine returns the last non-empty line of s, shortened.
func lastLine(s string) string {
	lines := nonEmptyLines(s)
	if len(lines) == 0 {
		return ""
	}
	return shorten(lines[len(lines)-1])
}

var errorLineRE = lazyre.New(`(?i)\b(error|errors|fail|failed|failure|panic|cannot|undefined|expected|not found)\b|^\s*--- FAIL|✕`)

// firstErrorLine returns the first line of s that looks like an error and
// is no banner or header, else its last non-empty line, shortened: what the
// failure is blocked on.
func firstErrorLine(s string) string {
	for _, l := range nonEmptyLines(s) {
		if errorLineRE().MatchString(l) && !isNoise(l) {
			return shorten(l)
		}
	}
	return lastLine(s)
}

// lineAt returns the line of s holding byte offset i, shortened.
func lineAt(s string, i int) string {
	start := strings.LastIndexByte(s[:i], '\n') + 1
	end := strings.IndexByte(s[i:], '\n')
	if end < 0 {
		end = len(s)
	} else {
		end += i
	}
	return shorten(strings.TrimSpace(s[start:end]))
}

// shorten bounds a line to lineLimit runes.
func shorten(s string) string {
	if utf8.RuneCountInString(s) <= lineLimit {
		return s
	}
	r := []rune(s)
	return string(r[:lineLimit-1]) + "…"
}

// commandWords returns the program names and arguments of a shell command
// line, without environment assignments, operators and flags, with paths
// reduced to their base names: the candidates for "the gate's tool".
func commandWords(cmd string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(cmd, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == ';' || r == '|' || r == '&' || r == '(' || r == ')' || r == '`'
	}) {
		w = strings.Trim(w, `"'`)
		if w == "" || strings.HasPrefix(w, "-") || strings.Contains(w, "=") {
			continue
		}
		out = append(out, filepath.Base(w))
	}
	return out
}

// program returns the first program a command line runs ("go" for
// "GOFLAGS=-x go test ./..."), or "" for an empty command.
func program(cmd string) string {
	for _, w := range strings.Fields(cmd) {
		w = strings.Trim(w, `"'`)
		if w == "" || strings.Contains(w, "=") {
			continue
		}
		return filepath.Base(w)
	}
	return ""
}
