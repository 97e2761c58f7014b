package state

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRemoveKeepsTheHistory(t *testing.T) {
	t.Parallel()
	s := Open(t.TempDir())
	require.NoError(t, s.Init())
	require.NoError(t, s.SaveRun(&Run{PlanPath: "PLAN.md"}))
	require.Equal(t, filepath.Join(s.Dir(), "history.jsonl"), s.HistoryPath())
	require.NoError(t, os.WriteFile(s.HistoryPath(), []byte("{}\n"), 0o644))
	require.NoError(t, os.WriteFile(s.HistoryPath()+".1", []byte("{}\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(s.Dir(), "history.jsonl.2"), []byte("x"), 0o644))

	require.NoError(t, s.Remove())
	require.False(t, s.Exists())
	var names []string
	entries, err := os.ReadDir(s.Dir())
	require.NoError(t, err)
	for _, e := range entries {
		names = append(names, e.Name())
	}
	require.ElementsMatch(t, []string{"history.jsonl", "history.jsonl.1"}, names,
		"the history and its one rotated copy outlive --fresh; nothing else does")
}
