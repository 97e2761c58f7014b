package runstart

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Untracked files alone get advice that works for them (git stash -u, or
// .gitignore); anything else keeps the advice it had.
func TestUntrackedAdvice(t *testing.T) {
	t.Parallel()
	got := untrackedAdvice([]string{"?? scratch.txt", "?? notes/"}, plainDirtyAdvice)
	require.Contains(t, got, "untracked files")
	require.Contains(t, got, ".gitignore")
	require.Contains(t, got, "git stash -u (plain git stash leaves untracked files)")

	require.Equal(t, plainDirtyAdvice, untrackedAdvice([]string{" M README.md", "?? scratch.txt"}, plainDirtyAdvice))
	require.Contains(t, plainDirtyAdvice, "git stash -u")
	const own = "the run in .autobuild/ is complete and left its changes uncommitted"
	require.Equal(t, own, untrackedAdvice([]string{"?? src/"}, own))
}
