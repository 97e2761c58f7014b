package tui

import "charm.land/bubbles/v2/key"

// KeyMap is every key the TUI answers to. The help line is built from it, so
// what it shows is always what works.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom, Left, Right key.Binding

	Focus  key.Binding // list → detail pane
	Back   key.Binding // detail pane → list; clears a search
	Search key.Binding
	Next   key.Binding
	Prev   key.Binding
	Follow key.Binding

	Resume  key.Binding
	Fresh   key.Binding
	Log     key.Binding
	Summary key.Binding
	Copy    key.Binding

	Help      key.Binding
	Quit      key.Binding
	Interrupt key.Binding

	Yes, No key.Binding
}

// DefaultKeyMap returns the keys of doc.go.
func DefaultKeyMap() KeyMap {
	b := func(keys []string, help, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Up:       b([]string{"up", "k"}, "↑/k", "up"),
		Down:     b([]string{"down", "j"}, "↓/j", "down"),
		PageUp:   b([]string{"pgup", "ctrl+u", "b"}, "pgup", "page up"),
		PageDown: b([]string{"pgdown", "ctrl+d", "space"}, "pgdn", "page down"),
		Top:      b([]string{"home", "g"}, "g/home", "top"),
		Bottom:   b([]string{"end", "G"}, "G/end", "bottom"),
		Left:     b([]string{"left"}, "←", "scroll left"),
		Right:    b([]string{"right"}, "→", "scroll right"),

		Focus:  b([]string{"enter", "tab"}, "enter", "log"),
		Back:   b([]string{"esc", "tab", "shift+tab"}, "esc", "back"),
		Search: b([]string{"/"}, "/", "search"),
		Next:   b([]string{"n"}, "n/N", "next/prev match"),
		Prev:   b([]string{"N"}, "N", "previous match"),
		Follow: b([]string{"G", "end"}, "G", "follow"),

		Resume:  b([]string{"r"}, "r", "resume"),
		Fresh:   b([]string{"F"}, "F", "fresh"),
		Log:     b([]string{"l"}, "l", "failed log"),
		Summary: b([]string{"s"}, "s", "summary"),
		Copy:    b([]string{"c"}, "c", "copy resume"),

		Help:      b([]string{"?"}, "?", "help"),
		Quit:      b([]string{"q"}, "q", "quit"),
		Interrupt: b([]string{"ctrl+c"}, "ctrl+c", "interrupt"),

		Yes: b([]string{"y", "Y"}, "y", "yes"),
		No:  b([]string{"n", "N", "esc"}, "n", "no"),
	}
}
