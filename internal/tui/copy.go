package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/autobuild-sh/autobuild/internal/textwrap"
)

// copyResume is `c`: a command goes to the clipboard with OSC 52 (which
// works over ssh and in most terminals), cleaned of anything a terminal
// would act on. The halt box wraps long commands; this is the way to take
// one whole. When the halt knows its fix (the demo's), the first `c` copies
// the fix and the next the resume command, in the order they are run.
func (m *Model) copyResume() tea.Cmd {
	switch {
	case m.complete():
		m.footer.setNotice("The run is complete: there is no resume command to copy.", false)
		return nil
	case !m.ended():
		m.footer.setNotice("Nothing to copy yet: c copies the resume command once the run has halted.", false)
		return nil
	}
	if m.nextCopyIsFix() {
		cmd := textwrap.CleanLine(m.opts.FixCommand)
		m.copiedFix = true
		m.footer.setNotice("Copied the fix to the clipboard (c again copies the resume command): "+cmd, false)
		return tea.SetClipboard(cmd)
	}
	m.copiedFix = false
	cmd := textwrap.CleanLine(m.resumeHint())
	m.footer.setNotice("Copied to the clipboard: "+cmd, false)
	return tea.SetClipboard(cmd)
}

// nextCopyIsFix reports whether `c` copies the fix command next.
func (m *Model) nextCopyIsFix() bool { return m.opts.FixCommand != "" && !m.copiedFix }
