package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/state"
)

// The plan's warnings are on the first screen, before any phase starts, and
// go with the first key.
func TestPlanWarningsShownFromTheStart(t *testing.T) {
	t.Parallel()
	o := liveOptions(&fakeController{})
	o.Notice = "Plan warning: plan.md:7: warning: section \"Phase 6\" is not in the phase table"
	h := newHarness(t, o, 80, 24)
	require.Contains(t, h.screen(), "Plan warning: plan.md:7: warning: section")
	h.key("down")
	require.NotContains(t, h.screen(), "Plan warning")
}

// The `?` help shows every key at 80 and 100 columns: its columns go two by
// two instead of losing the ones that do not fit.
func TestFullHelpBelow120Columns(t *testing.T) {
	t.Parallel()
	for _, w := range []int{80, 100, 160} {
		h := newHarness(t, liveOptions(&fakeController{}), w, 40)
		h.feed(midRun())
		h.key("?")
		screen := h.screen()
		for _, c := range h.m.fullHelp().columns {
			for _, e := range c {
				require.Contains(t, screen, e.desc, "%d columns", w)
			}
		}
		for _, want := range []string{"select", "resume after a halt", "summary", "halt the run and quit (asks)",
			"halt (twice: kill)", "close help"} {
			require.Contains(t, screen, want, "%d columns", w)
		}
	}
}

// After a halt, c copies the resume command (OSC 52), cleaned of anything a
// terminal would act on, and the summary shows the commands unbroken under
// its box. Before the run stops there is nothing to copy.
func TestCopyResumeCommand(t *testing.T) {
	t.Parallel()
	o := liveOptions(&fakeController{})
	o.Commands.Resume = "cd '/tmp/a long path/with spaces/that wraps in the box/project' && autobuild docs/plan.md --resume\x1b]52;c;ZXZpbA==\x07"
	h := newHarness(t, o, 80, 24)
	h.feed(midRun())
	h.key("c")
	require.Contains(t, h.screen(), "Nothing to copy", "mid-run: nothing to copy")

	h.finish(haltEnd())
	h.send(snapshotMsg{gen: h.m.life.gen, snap: snapshotOf(h.m, state.RunHalted, "Phase 2B failed twice")})
	cmd := h.m.copyResume()
	require.NotNil(t, cmd)
	msg := fmt.Sprintf("%v", cmd())
	want := "cd '/tmp/a long path/with spaces/that wraps in the box/project' && autobuild docs/plan.md --resume"
	require.Contains(t, msg, want)
	require.NotContains(t, msg, "\x1b")
	require.NotContains(t, msg, "\x07")
	require.NotContains(t, msg, "52;c")
	require.Equal(t, "Copied to the clipboard: "+want, h.m.footer.notice)

	h.m.summary.vp.GotoBottom()
	// Under the box, too long for 80 columns, it is broken between words
	// with a backslash rather than clipped: pasted, it is one command.
	content := h.m.summary.vp.GetContent()
	require.Contains(t, content, "\nResume (c copies it):\n  cd '/tmp/a long path/with spaces/that wraps in the box/project' && autobuild \\\n  docs/plan.md --resume\n")
	for _, l := range strings.Split(content, "\n") {
		require.LessOrEqual(t, ansi.StringWidth(l), 80, "clipped: %q", l)
	}

	// Wide enough, it stays on one line.
	h.send(tea.WindowSizeMsg{Width: 140, Height: 30})
	require.Contains(t, h.m.summary.vp.GetContent(), "\nResume: "+want+"   (c copies it)\n")
}

// After --fresh without --commit the run keeps its mode, and the header
// learns it from the state when the UI was not told it.
func TestHeaderCommitModeFromState(t *testing.T) {
	t.Parallel()
	o := liveOptions(&fakeController{})
	o.CommitMode = ""
	h := newHarness(t, o, 100, 30)
	h.feed(midRun())
	require.NotContains(t, h.screen(), "commit auto")
	h.finish(haltEnd())
	snap := snapshotOf(h.m, state.RunHalted, "Phase 2B failed twice")
	snap.Run.CommitMode = "single"
	h.send(snapshotMsg{gen: h.m.life.gen, snap: snap})
	require.Contains(t, h.screen(), "commit single")
}
