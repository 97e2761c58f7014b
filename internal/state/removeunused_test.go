package state

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// A refused first start takes its .autobuild/ away only while it holds the
// lock: without it the directory and lock file may be another run's, made
// and locked since the start looked.
func TestRemoveUnusedNeedsTheHeldLock(t *testing.T) {
	t.Parallel()
	s := Open(t.TempDir())
	require.NoError(t, s.Init())
	other, err := s.Lock()
	require.NoError(t, err)

	s.RemoveUnused(nil)
	require.FileExists(t, s.LockPath(), "the other run's lock file stays")
	require.DirExists(t, s.PhasesDir())

	require.NoError(t, other.Unlock())
	s.RemoveUnused(other)
	require.FileExists(t, s.LockPath(), "an unlocked lock removes nothing: the clean-up runs before Unlock")

	mine, err := s.Lock()
	require.NoError(t, err)
	s.RemoveUnused(mine)
	require.NoError(t, mine.Unlock())
	_, err = os.Lstat(s.Dir())
	require.ErrorIs(t, err, os.ErrNotExist, "the held lock's start leaves nothing behind")
}

// A lock whose file was removed (a refused start's clean-up) does not
// block the next run, which locks the file at the path; a third is refused.
// (The race Lock's same-file check closes, a file opened just before its
// removal and locked just after, has no deterministic test.)
func TestLockIsOnTheFileAtThePath(t *testing.T) {
	t.Parallel()
	s := Open(t.TempDir())
	first, err := s.Lock()
	require.NoError(t, err)
	require.NoError(t, os.Remove(s.LockPath()))
	second, err := s.Lock()
	require.NoError(t, err, "the removed file's lock does not block")
	_, err = s.Lock()
	var le *LockedError
	require.ErrorAs(t, err, &le, "the file at the path is locked")
	require.NoError(t, second.Unlock())
	require.NoError(t, first.Unlock())
}
