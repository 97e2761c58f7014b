package tui

import (
	"charm.land/bubbles/v2/key"
)

// reviewKeys decide and scroll the review screen.
type reviewKeys struct {
	Approve, Reject, Edit, Shell, Skip      key.Binding
	ApproveBatch                            key.Binding // every phase of the batch that waits
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
}

// noteKeys end the note prompt of a rejection; every other key edits it.
type noteKeys struct {
	Submit, Cancel key.Binding
}

func defaultReviewKeys(b func(keys []string, help, desc string) key.Binding, up, down, pageUp, pageDown, top, bottom []string) reviewKeys {
	return reviewKeys{
		Approve:      b([]string{"a"}, "a", "approve"),
		ApproveBatch: b([]string{"A"}, "A", "approve the batch"),
		Reject:       b([]string{"x"}, "x", "reject"),
		Edit:         b([]string{"e"}, "e", "editor"),
		Shell:        b([]string{"o"}, "o", "shell"),
		Skip:         b([]string{"esc"}, "esc", "skip"),
		Up:           b(up, "↑/k", "up"),
		Down:         b(down, "↑/↓", "scroll"),
		PageUp:       b(pageUp, "pgup", "page up"),
		PageDown:     b(pageDown, "pgdn", "page down"),
		Top:          b(top, "g/home", "top"),
		Bottom:       b(bottom, "G/end", "bottom"),
	}
}

// help is the review screen's part of the help line: the decisions first.
func (k reviewKeys) help() (first, rest []key.Binding) {
	return []key.Binding{k.Approve, k.Reject, k.Edit, k.Shell, k.Skip}, []key.Binding{k.Down}
}

// help is the note prompt's keys: "enter reject · esc cancel".
func (k noteKeys) help(kind noteKind) string {
	submit := "reject"
	if kind == noteSteer {
		submit = "send"
	}
	return k.Submit.Help().Key + " " + submit + " · " + k.Cancel.Help().Key + " " + k.Cancel.Help().Desc
}
