package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/textwrap"
)

// copyResume is `c`: the resume command goes to the clipboard with OSC 52
// (which works over ssh and in most terminals), cleaned of anything a
// terminal would act on. The halt box wraps long commands; this is the way
// to take one whole.
func (m *Model) copyResume() tea.Cmd {
	if !m.ended() || m.complete() {
		m.setNotice("Nothing to copy: c copies the resume command once a run has stopped.", false)
		return nil
	}
	cmd := textwrap.CleanLine(m.resumeHint())
	m.setNotice("Copied to the clipboard: "+cmd, false)
	return tea.SetClipboard(cmd)
}

// unbrokenCommands are the halt summary's commands as whole lines, shown
// under its box, where wrapping would break them for a copy with the mouse.
func (m *Model) unbrokenCommands() string {
	in := m.summaryIn
	if in == nil || in.Run == nil || in.Run.Status == state.RunComplete || in.ResumeCommand == "" {
		return ""
	}
	lines := []string{"", "Resume: " + textwrap.CleanLine(in.ResumeCommand) + "   (c copies it)"}
	if in.FreshCommand != "" {
		lines = append(lines, "Fresh:  "+textwrap.CleanLine(in.FreshCommand))
	}
	return strings.Join(lines, "\n")
}
