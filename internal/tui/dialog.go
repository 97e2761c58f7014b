package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/autobuild-sh/autobuild/internal/runctl"
)

// dialog is a yes/no question in the footer: its prompt and what yes does
// (crush's dialog). While one is open it takes every key but ctrl+c; a
// new question is one constructor here.
type dialog struct {
	// prompt is the question, with how to answer ("… y/n").
	prompt string
	// yes is what answering yes does; no only closes the dialog.
	yes func() tea.Cmd
	// endsWithRun drops the question when the run ends by itself: it
	// asked about a run that is no longer there.
	endsWithRun bool
}

// quitDialog is `q` while a run goes on: halt it, then quit.
func (m *Model) quitDialog() *dialog {
	return &dialog{prompt: "Halt the run and quit? y/n", yes: m.interrupt, endsWithRun: true}
}

// freshDialog is `F` after a halt: start the plan over.
func (m *Model) freshDialog() *dialog {
	return &dialog{
		prompt: "Start fresh? Deletes " + m.stateDir() + "; all phases run again; commits stay. y/n",
		yes:    func() tea.Cmd { return m.startRun(runctl.Fresh) },
	}
}

// dialogBody is an open dialog: y answers yes, n or esc no; every other
// key is ignored.
func (m *Model) dialogBody() body {
	d, k := m.dialog, m.keys.Confirm
	return body{name: "dialog", keys: func() []binding {
		return []binding{
			bind(k.Yes, func() tea.Cmd { m.dialog = nil; return d.yes() }),
			act(k.No, func() { m.dialog = nil }),
		}
	}, typing: func(tea.KeyPressMsg) tea.Cmd { return nil }, line: &promptLine{question: d.prompt}}
}
