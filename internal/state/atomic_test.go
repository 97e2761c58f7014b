package state

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWriteAtomicReplaces(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "f.json")
	require.NoError(t, writeJSON(path, map[string]string{"a": "<b>"}))
	require.NoError(t, writeJSON(path, map[string]string{"a": "c"}))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "{\n  \"a\": \"c\"\n}\n", string(data), "indented, trailing newline")
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o644), fi.Mode().Perm())
	requireNoTemps(t, dir)
}

func TestWriteAtomicFailureKeepsOldFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "f.json")
	require.NoError(t, os.WriteFile(path, []byte("old\n"), 0o644))

	boom := errors.New("disk full")
	err := writeAtomic(path, func(w io.Writer) error {
		_, _ = w.Write([]byte("half of the new con"))
		return boom
	})
	require.ErrorIs(t, err, boom)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "old\n", string(data))
	requireNoTemps(t, dir)
}

func TestWriteAtomicRenameFailureRemovesTemp(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// A non-empty directory where the file should go makes the rename fail.
	path := filepath.Join(dir, "f.json")
	require.NoError(t, os.MkdirAll(filepath.Join(path, "x"), 0o755))
	require.Error(t, writeJSON(path, 1))
	requireNoTemps(t, dir)
}

func TestSaveRunLeavesNoTemps(t *testing.T) {
	t.Parallel()
	s := Open(t.TempDir())
	require.NoError(t, s.Init())
	for i := range 5 {
		require.NoError(t, s.SaveRun(&Run{PlanPath: "p", PID: i}))
		require.NoError(t, s.SavePhase(&Phase{PhaseID: "1", Attempt: i}))
	}
	requireNoTemps(t, s.Dir())
	requireNoTemps(t, s.PhasesDir())
}

func requireNoTemps(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		require.False(t, isTemp(e.Name()), "temp file left behind: %s", e.Name())
	}
}
