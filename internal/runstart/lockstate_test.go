package runstart

import (
	"errors"
	"os"
	"testing"

	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/stretchr/testify/require"
)

// Review 2: a first start (no .autobuild/ when it looked) whose lock is
// refused because another run made .autobuild/ meanwhile and holds it
// takes nothing away: that run's lock file stays, and its lock still
// refuses a third.
func TestRefusedLockTakesAwayNothingOfTheOtherRun(t *testing.T) {
	t.Parallel()
	store := state.Open(t.TempDir())
	require.NoError(t, store.Init())
	other, err := store.Lock()
	require.NoError(t, err)
	defer func() { _ = other.Unlock() }()

	_, _, err = LockState(store, true)
	var le *state.LockedError
	require.True(t, errors.As(err, &le), "got %v", err)
	require.FileExists(t, store.LockPath())
	require.DirExists(t, store.PhasesDir())
	_, err = store.Lock()
	require.True(t, errors.As(err, &le), "the other run's lock still holds: %v", err)
}

// A first start refused after it locked takes its .autobuild/ away while
// it still holds the lock, then unlocks.
func TestRefusedFirstStartCleansUpUnderItsLock(t *testing.T) {
	t.Parallel()
	store := state.Open(t.TempDir())
	require.NoError(t, store.Init())
	_, release, err := LockState(store, true)
	require.NoError(t, err)
	release(false)
	_, err = os.Lstat(store.Dir())
	require.ErrorIs(t, err, os.ErrNotExist)
	again, err := store.Lock()
	require.NoError(t, err, "unlocked")
	require.NoError(t, again.Unlock())
}
