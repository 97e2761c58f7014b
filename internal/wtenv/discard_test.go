package wtenv

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The files brought in leave a worktree about to be removed by a rename,
// and are removed in the background; the checkout's own stay.
func TestDiscardMovesOutAndRemovesInTheBackground(t *testing.T) {
	dir, wt := nodeRepo(t)
	e := newEnv(t, dir, Ops{Clone: noClone, Link: os.Link})
	_, err := e.Bring(context.Background(), wt)
	require.NoError(t, err)
	trash := filepath.Join(dir, ".autobuild", "worktree-files-trash")
	n, err := e.Discard(trash, []string{wt})
	require.NoError(t, err)
	require.Equal(t, 2, n)
	require.NoFileExists(t, filepath.Join(wt, ".env"))
	require.NoDirExists(t, filepath.Join(wt, "node_modules"))
	require.FileExists(t, filepath.Join(wt, "index.js"), "tracked files stay for git's removal")

	require.NoError(t, EmptyTrash(trash))
	require.NoDirExists(t, trash)
	require.Eventually(t, func() bool {
		left, _ := filepath.Glob(trash + "*")
		return len(left) == 0
	}, 10*time.Second, 20*time.Millisecond)
	require.Equal(t, "GREETING=hello\n", read(t, filepath.Join(dir, ".env")))
	require.FileExists(t, filepath.Join(dir, "node_modules/ms/index.js"))
	require.NoError(t, EmptyTrash(trash), "nothing to remove is fine")
}
