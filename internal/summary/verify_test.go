package summary

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/state"
)

// The boxes say what the run verified together, that --verify=off did
// not, and a red base the run went on with; a run with nothing to verify
// together says nothing.
func TestSummariesSayWhatWasVerifiedTogether(t *testing.T) {
	t.Parallel()
	in := haltedInput()
	in.Run.LineVerification = &state.LineVerification{Groups: 3, Conflicts: 1}
	require.Contains(t, Render(in, 80), "Verified together: 3 groups, 1 conflict found and retried.")

	in.Run.LineVerification = &state.LineVerification{Groups: 1, RedBase: []string{"test"}}
	out := Render(in, 80)
	require.Contains(t, out, "Verified together: 1 group.")
	require.Contains(t, out, "Red base (--allow-red-base): test already failed before the run")

	in.Run.LineVerification, in.Run.Verify = nil, "off"
	require.Contains(t, Render(in, 80), "Not verified together (--verify=off)")

	in.Run.Verify = "landing"
	out = Render(in, 80)
	require.NotContains(t, out, "erified together")
}
