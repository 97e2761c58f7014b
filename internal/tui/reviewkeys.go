package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/autobuild-sh/autobuild/internal/state"
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

// help is the note prompt's keys: "enter reject · esc cancel".
func (k noteKeys) help(kind noteKind) string {
	submit := "reject"
	if kind == noteSteer {
		submit = "send"
	}
	return k.Submit.Help().Key + " " + submit + " · " + k.Cancel.Help().Key + " " + k.Cancel.Help().Desc
}

// reviewBody is the review screen: the decisions, then its scrolling; the
// decisions wait until the review has been read.
func (m *Model) reviewBody() body {
	return body{name: "review", keys: m.reviewBindings, render: m.rv.Render}
}

func (m *Model) reviewBindings() []binding {
	k, v := m.keys.Review, &m.rv
	unread := func() *disabledReason {
		switch {
		case v.err != nil:
			return because("The review could not be read: there is nothing to decide on; esc goes back.")
		case v.rev == nil:
			return because("The review is still being read.")
		}
		return nil
	}
	decide := func(b key.Binding, do func() tea.Cmd) binding { return bind(b, do).when(unread).help() }
	scroll := func(b key.Binding, to func() int) binding {
		return act(b, func() { v.top = to(); v.clamp() })
	}
	page := func() int { return max(1, v.height-1) }
	keys := []binding{
		decide(k.Approve, func() tea.Cmd { return decideCmd(m.root(), v.rev.Phase, state.DecisionApprove, "", m.now()) }),
		bind(k.ApproveBatch, func() tea.Cmd { return approveAllCmd(m.root(), m.batchAwaiting(), m.now()) }).when(func() *disabledReason {
			if r := unread(); r != nil {
				return r
			}
			if len(m.batchAwaiting()) < 2 {
				return because("A approves every phase of this batch that awaits review; only this one does.")
			}
			return nil
		}).helpIf(func() bool { return len(m.batchAwaiting()) > 1 }).fullAs("A", "approve the batch"),
		decide(k.Reject, func() tea.Cmd {
			m.note = notePrompt{kind: noteReject, id: v.id, display: v.rev.Phase.DisplayID, input: searchInput{max: 2000}}
			return nil
		}).fullAs("x", "reject (a note)"),
		decide(k.Edit, func() tea.Cmd { return m.execInWorktree(editorCommand()) }).fullAs("e", "editor in the worktree"),
		decide(k.Shell, func() tea.Cmd { return m.execInWorktree(shellCommand()) }).fullAs("o", "shell in the worktree"),
		act(k.Skip, m.leaveReview).help().fullAs("esc", "leave it waiting"),
	}
	keys = append(keys, m.quitHelp()...)
	keys = append(keys,
		scroll(k.Down, func() int { return v.top + 1 }).help().fullAs("↑/k ↓/j", "scroll"),
		scroll(k.Up, func() int { return v.top - 1 }).fold(),
		scroll(k.PageUp, func() int { return v.top - page() }).fold(),
		scroll(k.PageDown, func() int { return v.top + page() }).fullAs("pgup/pgdn", "page"),
		scroll(k.Top, func() int { return 0 }),
		scroll(k.Bottom, func() int { return len(v.lines()) }),
	)
	keys = append(keys, m.runControls(false, false)...)
	return append(keys, m.otherRunKeys()...)
}
