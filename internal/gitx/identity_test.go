package gitx

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// Without a configured identity, the note says who the commits will be made
// as and how to set a real one; with one, there is nothing to say.
func TestIdentityNote(t *testing.T) {
	t.Parallel()
	r, dir := newRepo(t)
	require.Empty(t, r.IdentityNote())

	gitT(t, dir, "config", "--unset", "user.email")
	bare, err := Open(context.Background(), dir)
	require.NoError(t, err)
	require.Equal(t, `git has no user.email configured here, so autobuild's commits will be made as "Test User" <autobuild@localhost>; `+
		`to commit as yourself, stop and run: git config --global user.name "Your Name" && git config --global user.email you@example.com`,
		bare.IdentityNote())

	gitT(t, dir, "config", "--unset", "user.name")
	none, err := Open(context.Background(), dir)
	require.NoError(t, err)
	require.Contains(t, none.IdentityNote(), `made as "autobuild" <autobuild@localhost>`)
}
