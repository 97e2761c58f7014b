package plan

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

func TestLookAlikeIDs(t *testing.T) {
	t.Parallel()
	src := "# P\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n| 2A | 1 |\n| 2А | 1 |\n| ２B | 1 |\n| 2B | 1 |\n\n" +
		"## Phase 1: a\n## Phase 2A: b\n## Phase 2А: c\n## Phase ２B: d\n## Phase 2B: e\n"
	pl, err := Parse("p.md", []byte(src))
	require.NoError(t, err)
	pairs := LookAlikeIDs(pl)
	require.Len(t, pairs, 2)
	require.Equal(t, phaseid.Display("2A"), pairs[0][0].DisplayID)
	require.Equal(t, phaseid.Display("2А"), pairs[0][1].DisplayID)
	require.Empty(t, LookAlikeIDs(mustParse(t, "# P\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n| 2 | 1 |\n\n## Phase 1: a\n## Phase 2: b\n")))
}

func mustParse(t *testing.T, src string) *Plan {
	t.Helper()
	pl, err := Parse("p.md", []byte(src))
	require.NoError(t, err)
	return pl
}
