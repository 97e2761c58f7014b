package state

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

func TestAttemptFileNamesRoundTrip(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		id  phaseid.ID
		n   int
		ext string
	}{{"2a", 1, "log"}, {"0.5", 12, "diff"}, {"1.1", 2, "stream"}, {"v2 api", 3, "md"}} {
		name := AttemptFileName(tc.id, tc.n, tc.ext)
		fileID, n, ext, ok := ParseAttemptFileName(name)
		require.True(t, ok, name)
		require.Equal(t, FileIDOf(tc.id), fileID, name)
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

// Every branch a run creates carries its id; a run from before run ids
// keeps its fixed names so it can resume.
func TestRefsNameTheRunsOwnBranches(t *testing.T) {
	t.Parallel()
	r := RefsOf(Run{RunID: "20261125-120000-abcdef"})
	require.Equal(t, "autobuild/20261125-120000-abcdef/integration", r.Integration())
	require.Equal(t, "autobuild/20261125-120000-abcdef/phase-2a", r.Phase("2a"))
	require.Equal(t, "autobuild/20261125-120000-abcdef/phase-", r.PhasePrefix())

	old := RefsOf(Run{})
	require.Equal(t, "autobuild/integration", old.Integration())
	require.Equal(t, "autobuild/phase-2a", old.Phase("2a"))
	require.Empty(t, old.Prefix(), "a run without an id never deletes by prefix")
	require.Empty(t, old.PhasePrefix())
}

func TestPatchPath(t *testing.T) {
	t.Parallel()
	s := Open("/repo")
	require.Equal(t, filepath.Join("/repo", ".autobuild", "patches", "03-phase-2a.patch"), s.PatchPath(3, "2a"))
	require.Equal(t, filepath.Join("/repo", ".autobuild", "patches", "01-phase-unknown.patch"), s.PatchPath(1, ""))
}
