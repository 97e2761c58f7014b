package state

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseCommitMode(t *testing.T) {
	t.Parallel()
	for _, m := range CommitModes() {
		got, err := ParseCommitMode(string(m))
		require.NoError(t, err)
		require.Equal(t, m, got)
	}
	_, err := ParseCommitMode("Auto")
	require.EqualError(t, err, `unknown commit mode "Auto": use auto, message-only, single`)
	_, err = ParseCommitMode("")
	require.Error(t, err)
}
