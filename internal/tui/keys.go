package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
)

// KeyMap is every key the TUI answers to, one keymap per screen or mode:
// its keys and their help texts. What each key does, when it does nothing
// and why, and when the help line offers it are the bindings of the body
// that has the keys (binding.go, focus.go), made from these.
type KeyMap struct {
	Run     runKeys     // everywhere: help, quit, interrupt and the run controls
	List    listKeys    // the phase list
	Pane    paneKeys    // the detail pane (the selected phase's log)
	Summary summaryKeys // the halt or completion summary
	Search  searchKeys  // the search prompt
	Confirm confirmKeys // a y/n question
	Review  reviewKeys  // the review screen (reviewkeys.go)
	Note    noteKeys    // the note prompt of a rejection
}

// runKeys work on every screen.
type runKeys struct {
	Help, Quit, Interrupt key.Binding
	Resume, Fresh         key.Binding
	// ResumeHint is r in read-only mode, where it shows the command.
	ResumeHint         key.Binding
	Log, Summary, Copy key.Binding
	// Mouse toggles mouse reporting (wheel scrolling) and the terminal's
	// own selection.
	Mouse key.Binding
}

// listKeys move the selection in the phase list.
type listKeys struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Focus                                   key.Binding // to the detail pane
	Search, Next, Prev                      key.Binding
	Clear                                   key.Binding // drops the filter
	Review                                  key.Binding // the selected phase awaiting review
	Steer                                   key.Binding // a note to the selected running phase
}

// paneKeys scroll and search the detail pane.
type paneKeys struct {
	Up, Down, PageUp, PageDown, Top key.Binding
	Follow                          key.Binding // back to the newest line
	Left, Right                     key.Binding
	Search, Next, Prev              key.Binding
	Clear                           key.Binding // drops the search (before Back)
	Back                            key.Binding // to the list
}

// summaryKeys scroll the summary.
type summaryKeys struct {
	Up, Down, PageUp, PageDown, Top, Bottom, Left, Right key.Binding
	Back                                                 key.Binding // to the phase list
}

// searchKeys end the search prompt; every other key edits it.
type searchKeys struct {
	Submit, Cancel key.Binding
}

// confirmKeys answer a y/n question; other keys are ignored.
type confirmKeys struct {
	Yes, No key.Binding
}

// DefaultKeyMap returns the keys of doc.go.
func DefaultKeyMap() KeyMap {
	b := func(keys []string, help, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	var (
		up       = []string{"up", "k"}
		down     = []string{"down", "j"}
		pageUp   = []string{"pgup", "ctrl+u", "b"}
		pageDown = []string{"pgdown", "ctrl+d", "space"}
		top      = []string{"home", "g"}
		bottom   = []string{"end", "G"}
		search   = b([]string{"/"}, "/", "search")
		next     = b([]string{"n"}, "n/N", "next/prev match")
		prev     = b([]string{"N"}, "N", "previous match")
		left     = b([]string{"left"}, "←", "scroll left")
		right    = b([]string{"right"}, "→", "scroll right")
	)
	return KeyMap{
		Run: runKeys{
			Help:       b([]string{"?"}, "?", "help"),
			Quit:       b([]string{"q"}, "q", "quit"),
			Interrupt:  b([]string{"ctrl+c"}, "ctrl+c", "interrupt"),
			Resume:     b([]string{"r"}, "r", "resume"),
			Fresh:      b([]string{"F"}, "F", "fresh"),
			ResumeHint: b([]string{"r"}, "r", "how to resume"),
			Log:        b([]string{"l"}, "l", "failed log"),
			Summary:    b([]string{"s"}, "s", "summary"),
			Copy:       b([]string{"c"}, "c", "copy resume"),
			Mouse:      b([]string{"m"}, "m", "mouse"),
		},
		List: listKeys{
			Up:       b(up, "↑/k", "up"),
			Down:     b(down, "↑/↓", "select"),
			PageUp:   b(pageUp, "pgup", "page up"),
			PageDown: b(pageDown, "pgdn", "page down"),
			Top:      b(top, "g/home", "top"),
			Bottom:   b(bottom, "G/end", "bottom"),
			Focus:    b([]string{"enter", "tab"}, "enter", "log"),
			Search:   b([]string{"/"}, "/", "filter"), Next: next, Prev: prev,
			Clear:  b([]string{"esc"}, "esc", "show all"),
			Review: b([]string{"v"}, "v", "review"),
			Steer:  b([]string{"M"}, "M", "steer"),
		},
		Pane: paneKeys{
			Up:       b(up, "↑/k", "up"),
			Down:     b(down, "↑/↓", "scroll"),
			PageUp:   b(pageUp, "pgup", "page up"),
			PageDown: b(pageDown, "pgdn", "page down"),
			Top:      b(top, "g/home", "top"),
			Follow:   b([]string{"G", "end"}, "G", "follow"),
			Left:     left, Right: right,
			Search: search, Next: next, Prev: prev,
			Clear: b([]string{"esc"}, "esc", "clear search"),
			Back:  b([]string{"esc", "tab", "shift+tab"}, "esc", "back"),
		},
		Summary: summaryKeys{
			Up:       b(up, "↑/k", "up"),
			Down:     b(down, "↑/↓", "scroll"),
			PageUp:   b(pageUp, "pgup", "page up"),
			PageDown: b(pageDown, "pgdn", "page down"),
			Top:      b(top, "g/home", "top"),
			Bottom:   b(bottom, "G/end", "bottom"),
			Left:     left, Right: right,
			Back: b([]string{"esc", "tab", "shift+tab", "enter"}, "esc", "phases"),
		},
		Search: searchKeys{
			Submit: b([]string{"enter"}, "enter", "search"),
			Cancel: b([]string{"esc"}, "esc", "cancel"),
		},
		Confirm: confirmKeys{
			Yes: b([]string{"y", "Y"}, "y", "yes"),
			No:  b([]string{"n", "N", "esc"}, "n", "no"),
		},
		Review: defaultReviewKeys(b, up, down, pageUp, pageDown, top, bottom),
		Note: noteKeys{
			Submit: b([]string{"enter"}, "enter", "send"),
			Cancel: b([]string{"esc"}, "esc", "cancel"),
		},
	}
}

// help is the search prompt's keys: "enter search · esc cancel".
func (k searchKeys) help() string {
	var parts []string
	for _, b := range []key.Binding{k.Submit, k.Cancel} {
		parts = append(parts, b.Help().Key+" "+b.Help().Desc)
	}
	return strings.Join(parts, " · ")
}

// helpKey is a binding shown with a help text for the full help.
func helpKey(b key.Binding, keys, desc string) key.Binding {
	b.SetHelp(keys, desc)
	return b
}
