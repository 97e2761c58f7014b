package state

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The branch that keeps an agent's autostash is named after the phase's
// but lies outside every prefix a run's clean-up deletes.
func TestKeptAutostashIsOutsideTheRunsPrefixes(t *testing.T) {
	for _, r := range []Refs{RefsOf(Run{RunID: "20261125-120000-abcdef"}), {}} {
		kept := r.KeptAutostash("2a")
		require.True(t, strings.HasPrefix(kept, "autobuild-kept/"), kept)
		require.True(t, strings.HasSuffix(kept, "phase-2a-autostash"), kept)
		if r.Prefix() != "" {
			require.False(t, strings.HasPrefix(kept, r.Prefix()), kept)
			require.Equal(t, "autobuild-kept/20261125-120000-abcdef/phase-2a-autostash", kept)
		}
	}
}
