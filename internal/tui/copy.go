package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/autobuild-sh/autobuild/internal/textwrap"
)

// copyResume is `c`: the resume command goes to the clipboard with OSC 52
// (which works over ssh and in most terminals), cleaned of anything a
// terminal would act on. The halt box wraps long commands; this is the way
// to take one whole.
func (m *Model) copyResume() tea.Cmd {
	if !m.ended() || m.complete() {
		m.footer.setNotice("Nothing to copy: c copies the resume command once a run has stopped.", false)
		return nil
	}
	cmd := textwrap.CleanLine(m.resumeHint())
	m.footer.setNotice("Copied to the clipboard: "+cmd, false)
	return tea.SetClipboard(cmd)
}
