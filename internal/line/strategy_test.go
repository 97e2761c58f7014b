package line

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/state"
)

// Each commit mode has one strategy, chosen by its name, and the choice
// decides how a landed phase is recorded, whether the run commits, and
// the words that say where the work is.
func TestEachCommitModeLandsByItsStrategy(t *testing.T) {
	t.Parallel()
	run := state.Run{Branch: "main", FinalCommit: "0123456789abcdef"}
	for _, c := range []struct {
		mode         state.CommitMode
		branchIsLine bool // a landed phase records the line's commit
		commits      bool
		summary      string
		commitsMade  int // with 3 per-phase commits
	}{
		{state.CommitAuto, true, true, "Commits are on branch main.", 3},
		{state.CommitMessageOnly, false, false, "Changes are uncommitted in the work tree; commit them phase by phase with: sh .autobuild/commits.sh", 3},
		{state.CommitSingle, false, true, "All phases were committed as one commit: 0123456 on main.", 1},
	} {
		s, err := StrategyFor(c.mode)
		require.NoError(t, err, c.mode)
		require.Equal(t, c.mode, s.Mode())
		require.Equal(t, c.branchIsLine, s.recorded("tip") == "tip", c.mode)
		require.Equal(t, c.commits, s.MakesCommits(), c.mode)
		require.Equal(t, c.summary, s.Summary(run, ""), c.mode)
		require.Equal(t, c.commitsMade, s.Commits(run, 3), c.mode)
		require.NotEmpty(t, s.Help(), c.mode)
		// Only the modes that land at the end leave changes of their own.
		require.Equal(t, !c.branchIsLine, s.LeftChanges(state.RunRunning) != "", c.mode)
	}
	var modes []state.CommitMode
	for _, s := range Strategies() {
		modes = append(modes, s.Mode())
	}
	require.Equal(t, state.CommitModes(), modes, "one strategy per mode, in the modes' order")
	_, err := StrategyFor("squash")
	require.ErrorContains(t, err, `"squash" is not a commit mode`)
}
