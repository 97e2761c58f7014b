package state

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestAttemptFileNamesRoundTrip(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		id  string
		n   int
		ext string
	}{{"2a", 1, "log"}, {"0.5", 12, "diff"}, {"1.1", 2, "stream"}, {"v2 api", 3, "md"}} {
		name := AttemptFileName(tc.id, tc.n, tc.ext)
		fileID, n, ext, ok := ParseAttemptFileName(name)
		require.True(t, ok, name)
		require.Equal(t, FileID(tc.id), fileID, name)
		require.Equal(t, tc.n, n, name)
		require.Equal(t, tc.ext, ext, name)
	}
	for _, bad := range []string{"execution.log", "phase-2a.log", "phase-.attempt-1.log", "phase-2a.attempt-x.log",
		"phase-2a.attempt-01.log", "phase-2a.attempt-1", "notes.txt"} {
		_, _, _, ok := ParseAttemptFileName(bad)
		require.False(t, ok, bad)
	}
}

func TestLayoutPaths(t *testing.T) {
	t.Parallel()
	s := Open("/repo")
	require.Equal(t, "/repo/.autobuild/logs/phase-2a.attempt-1.log", s.AttemptLogPath("2a", 1))
	require.Equal(t, "/repo/.autobuild/logs/phase-2a.attempt-1.stream", s.AttemptStreamPath("2a", 1))
	require.Equal(t, "/repo/.autobuild/prompts/phase-2a.attempt-3.md", s.PromptPath("2a", 3))
	require.Equal(t, filepath.Join("/repo/.autobuild/worktrees", "phase-2a"), s.PhaseWorktreePath("2a"))
	require.Equal(t, "/repo/.autobuild/worktrees/integration", s.IntegrationWorktreePath())
	require.Equal(t, "/repo/.autobuild/patches", s.PatchesDir())
}
