package summary

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/state"
)

func TestTheHistoryNoteIsShownWhenThereIsOne(t *testing.T) {
	t.Parallel()
	in := haltedInput()
	require.NotContains(t, Render(in, 80), "HISTORY", "no note, no section")

	in.Run.HistoryNote = "phase 2B has failed with test_failure in 3 of its last 4 runs"
	out := Render(in, 80)
	require.Contains(t, out, "HISTORY")
	require.Contains(t, out, "Phase 2B has failed with test_failure in 3 of its last 4 runs (autobuild")
	require.Less(t, strings.Index(out, "HISTORY"), strings.Index(out, "BLOCKED PHASES"),
		"next to the failures it is about")

	in.Run.Status = state.RunComplete
	in.Phases = in.Phases[:3]
	require.Contains(t, Render(in, 80), "Phase 2B has failed with test_failure", "the completion summary shows it too")
}
