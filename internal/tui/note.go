package tui

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
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
		m.footer.setNotice("M sends a note to a running phase: its agent is stopped and continues with it (the retry is not used).", false)
		return
	}
	m.note = notePrompt{kind: noteSteer, id: r.id, display: r.displayID, input: searchInput{max: 2000}}
}

// noteKey is a key of the note prompt.
func (m *Model) noteKey(k tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(k, m.keys.Note.Submit):
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
	case key.Matches(k, m.keys.Note.Cancel):
		m.note = notePrompt{}
	default:
		m.note.input.update(k)
	}
	return nil
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
