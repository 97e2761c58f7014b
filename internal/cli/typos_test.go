package cli

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLevenshtein(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"comit", "commit", 1}, {"fresj", "fresh", 1}, {"resume", "resmue", 2}, {"", "abc", 3}, {"json", "verbose", 6}} {
		require.Equal(t, c.d, levenshtein(c.a, c.b), "%s/%s", c.a, c.b)
	}
}

// TestMistypedFlag: a flag cobra does not know gets the one it is close to,
// at the top level and in a subcommand (whose flags and inherited ones count).
func TestMistypedFlag(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--comit=auto", "plan.md"}, "unknown flag: --comit: did you mean --commit? (see autobuild --help)"},
		{[]string{"plan.md", "--agnet", "claude"}, "did you mean --agent?"},
		{[]string{"--max-paralel", "plan.md"}, "did you mean --max-parallel?"},
		{[]string{"--max", "plan.md"}, "did you mean --max-cost or --max-parallel"},
		{[]string{"status", "--jsn"}, "did you mean --json?"},
		{[]string{"validate", "--chdri", "x", "p.md"}, "did you mean --chdir?"},
	} {
		var out, errOut bytes.Buffer
		require.Equal(t, 2, Main(c.args, Streams{Out: &out, Err: &errOut}), "%v", c.args)
		require.Contains(t, errOut.String(), c.want, "%v", c.args)
	}
	var out, errOut bytes.Buffer
	require.Equal(t, 2, Main([]string{"--zzzzzz", "plan.md"}, Streams{Out: &out, Err: &errOut}))
	require.NotContains(t, errOut.String(), "did you mean", "nothing close: no guess")
}

func TestUnknownCommandListsAll(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	require.Equal(t, 2, Main([]string{"frobnicate"}, Streams{Out: &out, Err: &errOut}))
	for _, c := range []string{"validate", "status", "watch", "demo", "report", "version", "completion"} {
		require.Contains(t, errOut.String(), c)
	}
	require.NotContains(t, errOut.String(), "sim-agent", "hidden commands stay hidden")
}
