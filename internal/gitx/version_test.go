package gitx

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseVersion(t *testing.T) {
	t.Parallel()
	for out, want := range map[string][2]int{
		"git version 2.39.5\n":                 {2, 39},
		"git version 2.39.3 (Apple Git-146)\n": {2, 39},
		"git version 2.41.0.windows.1\n":       {2, 41},
		"git version 3.0\n":                    {3, 0},
	} {
		major, minor, ok := parseVersion(out)
		require.True(t, ok, out)
		require.Equal(t, want, [2]int{major, minor}, out)
	}
	for _, out := range []string{"", "hub version 2.14\n", "git version\n", "git version x.y\n"} {
		_, _, ok := parseVersion(out)
		require.False(t, ok, out)
	}
}

func TestCheckVersionOutput(t *testing.T) {
	t.Parallel()
	require.ErrorContains(t, checkVersionOutput("git version 2.34.1\n"), "needs git 2.38 or newer")
	require.ErrorContains(t, checkVersionOutput("git version 1.99.0\n"), "this is git version 1.99.0")
	require.NoError(t, checkVersionOutput("git version 2.38.0\n"))
	require.NoError(t, checkVersionOutput("git version 3.0.0\n"))
	require.NoError(t, checkVersionOutput("something else\n"), "unknown: git says later")
}

// The git of this machine is new enough: the tests of Pick need it too.
func TestCheckVersion(t *testing.T) {
	t.Parallel()
	require.NoError(t, CheckVersion(context.Background()))
}
