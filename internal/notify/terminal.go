package notify

import (
	"strings"
	"time"

	"github.com/autobuild-sh/autobuild/internal/event"

	"github.com/autobuild-sh/autobuild/internal/sanitize"
)

// Sequence is what the TUI writes to its terminal for a document: a bell
// and a desktop notification in the terminal's own escape sequence. OSC
// 777 (urxvt, foot, VTE terminals such as GNOME Terminal) when env says
// the terminal is one of those, else OSC 9 (iTerm2, WezTerm, Windows
// Terminal, kitty, Ghostty, …). Terminals that know neither ignore it.
// The text is sanitized: no byte of it can end the sequence early.
func Sequence(d Document, getenv func(string) string) string {
	title := "autobuild " + strings.ReplaceAll(string(d.Notification), "_", " ")
	body := oscText(d.Text)
	if uses777(getenv) {
		return "\a\x1b]777;notify;" + oscText(title) + ";" + body + "\a"
	}
	return "\a\x1b]9;" + body + "\a"
}

// uses777 tells terminals that take OSC 777 from their environment.
func uses777(getenv func(string) string) bool {
	term := getenv("TERM")
	return getenv("VTE_VERSION") != "" || strings.Contains(term, "rxvt") || strings.HasPrefix(term, "foot")
}

// oscText makes text safe inside an OSC string: printable only, no ';'
// (777's separator), and short.
func oscText(s string) string {
	s = strings.ReplaceAll(sanitize.Line(s), ";", ",")
	if r := []rune(s); len(r) > 240 {
		s = string(r[:239]) + "…"
	}
	return s
}

// Alert returns what the TUI writes to its terminal for each event of a
// run, in order: Sequence of the event's document when it is one of
// kinds, else "". It holds the run's tracker, so one goroutine calls it.
func Alert(kinds []Kind, getenv func(string) string) func(event.Event) string {
	n := &Notifier{opts: Options{Now: time.Now}, kinds: map[Kind]bool{}}
	for _, k := range kinds {
		n.kinds[k] = true
	}
	return func(e event.Event) string {
		d, ok := n.Document(e)
		if !ok {
			return ""
		}
		return Sequence(d, getenv)
	}
}
