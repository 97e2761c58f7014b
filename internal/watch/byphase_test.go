package watch

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// Log lines are read under the file ids in the log names; they reach the UI
// under the phase ids, matched through each phase's FileIDOf, so an id that
// is not file-safe ("v2 api", "2A") still gets its own lines.
func TestLinesAreKeyedByPhaseID(t *testing.T) {
	t.Parallel()
	odd, upper := state.FileIDOf("v2 api"), state.FileIDOf("2A")
	require.NotEqual(t, state.FileID("v2 api"), odd)
	snap := &state.Snapshot{Phases: []*state.Phase{{PhaseID: "v2 api"}, {PhaseID: "2A"}, {PhaseID: "1"}}}
	lines := map[state.FileID][]string{odd: {"odd"}, upper: {"upper"}, "1": {"one"}}
	require.Equal(t, map[phaseid.ID][]string{"v2 api": {"odd"}, "2A": {"upper"}, "1": {"one"}}, byPhaseID(lines, snap))

	// Before the first snapshot, a file id stands for itself.
	require.Equal(t, map[phaseid.ID][]string{"1": {"one"}}, byPhaseID(map[state.FileID][]string{"1": {"one"}}, nil))
}
