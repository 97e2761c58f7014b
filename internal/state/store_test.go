package state

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPaths(t *testing.T) {
	t.Parallel()
	s := Open("/repo")
	require.Equal(t, "/repo/.autobuild", s.Dir())
	require.Equal(t, "/repo/.autobuild/run.json", s.RunPath())
	require.Equal(t, "/repo/.autobuild/phases/phase-2a.json", s.PhasePath("2a"))
	require.Equal(t, "/repo/.autobuild/logs", s.LogsDir())
	require.Equal(t, "/repo/.autobuild/logs/phase-2a.attempt-2.log", s.AttemptLogPath("2a", 2))
	require.Equal(t, "/repo/.autobuild/logs/phase-2a.attempt-1.diff", s.AttemptDiffPath("2a", 1))
	require.Equal(t, "/repo/.autobuild/logs/execution.log", s.ExecutionLogPath())
	require.Equal(t, "/repo/.autobuild/worktrees", s.WorktreesDir())
	require.Equal(t, "/repo/.autobuild/commits.sh", s.CommitsScriptPath())
	// Ids are sanitized before they become file names.
	require.Equal(t, "/repo/.autobuild/phases/phase-"+string(FileIDOf("../x"))+".json", s.PhasePath("../x"))
	require.NotContains(t, s.PhasePath("../../etc"), "..")
}

func TestInitExistsRemove(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	s := Open(root)
	require.False(t, s.Exists())
	require.NoError(t, s.Remove(), "removing a missing directory is fine")

	require.NoError(t, s.Init())
	require.NoError(t, s.Init(), "Init is idempotent")
	for _, d := range []string{"phases", "logs", "worktrees"} {
		fi, err := os.Stat(filepath.Join(root, ".autobuild", d))
		require.NoError(t, err)
		require.True(t, fi.IsDir())
	}
	require.False(t, s.Exists(), "an empty directory is not a run")

	require.NoError(t, s.SaveRun(&Run{PlanPath: "PLAN.md"}))
	require.True(t, s.Exists())

	lock, err := s.Lock()
	require.NoError(t, err)
	defer func() { require.NoError(t, lock.Unlock()) }()
	require.NoError(t, s.Remove())
	require.False(t, s.Exists())
	entries, err := os.ReadDir(s.Dir())
	require.NoError(t, err)
	require.Len(t, entries, 1, "only the held lock file stays")
	require.Equal(t, "lock", entries[0].Name())

	// The lock survives Remove: a second run is still refused.
	_, err = s.Lock()
	require.Error(t, err)
}
