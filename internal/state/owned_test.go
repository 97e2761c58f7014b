package state

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCheckOwned(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		make func(t *testing.T, dir string)
		ok   bool
	}{
		{"missing", func(*testing.T, string) {}, true},
		{"plain directories", func(t *testing.T, dir string) { require.NoError(t, Open(dir).Init()) }, true},
		{"state dir is a link", func(t *testing.T, dir string) {
			require.NoError(t, os.Symlink(t.TempDir(), filepath.Join(dir, DirName)))
		}, false},
		{"state dir is a file", func(t *testing.T, dir string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, DirName), nil, 0o644))
		}, false},
		{"phases is a link", func(t *testing.T, dir string) {
			require.NoError(t, os.Mkdir(filepath.Join(dir, DirName), 0o755))
			require.NoError(t, os.Symlink(t.TempDir(), filepath.Join(dir, DirName, "phases")))
		}, false},
		{"an attempt log is a link", func(t *testing.T, dir string) {
			require.NoError(t, os.MkdirAll(filepath.Join(dir, DirName, "logs"), 0o755))
			require.NoError(t, os.Symlink("/etc/passwd", filepath.Join(dir, DirName, "logs", "phase-1.attempt-1.log")))
		}, false},
		{"run.json is a link", func(t *testing.T, dir string) {
			require.NoError(t, os.Mkdir(filepath.Join(dir, DirName), 0o755))
			require.NoError(t, os.Symlink("/etc/passwd", filepath.Join(dir, DirName, "run.json")))
		}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			c.make(t, dir)
			err := Open(dir).CheckOwned()
			if c.ok {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrNotOwned)
			require.ErrorIs(t, Open(dir).Init(), ErrNotOwned)
			require.ErrorIs(t, Open(dir).Remove(), ErrNotOwned)
		})
	}
}
