package tui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// noteKind is what a note being typed is for.
type noteKind int

const (
	noteNone   noteKind = iota
	noteReject          // x on the review screen: the retry's context
	noteSteer           // M on a running phase: the agent continues with it
)

// notePrompt is the note being typed in the footer, for phase id.
type notePrompt struct {
	kind    noteKind
	id      phaseid.ID
	display phaseid.Display
	input   searchInput
}

// prompt is what the footer's prompt starts with.
func (n notePrompt) prompt() string {
	if n.kind == noteSteer {
		return "Note to " + string(n.display.Or(n.id)) + "'s agent: "
	}
	return "Note for the retry: "
}

// steerSentMsg says a note to a running phase was written (or why not).
type steerSentMsg struct {
	id  phaseid.ID
	err error
}

// askSteer is `M` (m toggles the mouse): a note to the selected phase, when it is running.
func (m *Model) askSteer() {
	r := m.selected()
	if r == nil || r.status != stRunning {
		return // the binding says why (listBody)
	}
	m.note = notePrompt{kind: noteSteer, id: r.id, display: r.displayID, input: searchInput{max: 2000}}
}

// noteBody is the note prompt: enter sends the note, esc drops it; every
// other key edits it.
func (m *Model) noteBody() body {
	k := m.keys.Note
	return body{name: "note", keys: func() []binding {
		return []binding{
			bind(k.Submit, m.sendNote),
			act(k.Cancel, func() { m.note = notePrompt{} }),
		}
	}, typing: func(key tea.KeyPressMsg) tea.Cmd {
		m.note.input.update(key)
		return nil
	}, line: &promptLine{input: &m.note.input, help: k.help(m.note.kind), prefix: m.note.prompt()}}
}

// sendNote is enter in the note prompt: the steer, or the rejection.
func (m *Model) sendNote() tea.Cmd {
	text := strings.TrimSpace(m.note.input.text())
	if text == "" {
		m.footer.setNotice("The note is empty: type what the agent should do differently, or esc.", false)
		return nil
	}
	n := m.note
	m.note = notePrompt{}
	if n.kind == noteSteer {
		return steerCmd(m.root(), n.id, text, m.now())
	}
	if m.rv.rev == nil || m.rv.id != n.id {
		return nil
	}
	return decideCmd(m.root(), m.rv.rev.Phase, state.DecisionReject, text, m.now())
}

func steerCmd(root string, id phaseid.ID, text string, now time.Time) tea.Cmd {
	return func() tea.Msg {
		err := state.Open(root).SaveSteer(state.Steer{PhaseID: id, Note: text, Sent: now.UTC()})
		return steerSentMsg{id: id, err: err}
	}
}

// steerSent says how the note went.
func (m *Model) steerSent(msg steerSentMsg) {
	if msg.err != nil {
		m.footer.setNotice("The note was not written: "+msg.err.Error(), true)
		return
	}
	m.footer.setNotice("Note sent to "+string(msg.id)+": its agent stops and continues with it.", false)
}
