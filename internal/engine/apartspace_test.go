package engine

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/gittest"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// A phase whose executor owns its workspaces: its branch is set at its
// base, the earlier attempt's work (a commit) is what a later attempt
// continues and what the failure's diff holds, and after an
// integration_conflict that work is picked onto the line's new tip; no
// worktree is made, and none is parked when it lands.
func TestApartPhaseKeepsItsWorkAsCommits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := gittest.New(t, gittest.File("a.txt", "a\n"))
	repo, err := gitx.Open(ctx, root)
	require.NoError(t, err)
	tip := runGit(t, root, "rev-parse", "HEAD")
	refs := state.RefsOf(state.Run{RunID: "20260101-000000-abcdef"})
	w := newWorkspaces(repo, state.Open(root), refs, func() string { return tip })

	base, work, continues, err := w.prepareApart(ctx, "1", "1")
	require.NoError(t, err)
	require.Equal(t, tip, base)
	require.Empty(t, work)
	require.False(t, continues)
	require.Equal(t, tip, runGit(t, root, "rev-parse", "refs/heads/"+refs.Phase("1")), "the phase's branch is at its base")
	require.NoDirExists(t, w.path("1"))

	// The first attempt's work, as a commit on the base.
	runGit(t, root, "checkout", "-q", "-b", "elsewhere", base)
	require.NoError(t, os.WriteFile(filepath.Join(root, "b.txt"), []byte("b\n"), 0o644))
	runGit(t, root, "add", "b.txt")
	runGit(t, root, "commit", "-q", "-m", "work")
	first := runGit(t, root, "rev-parse", "HEAD")
	runGit(t, root, "checkout", "-q", "main")
	w.keepWork("1", first)
	diff, err := w.diff(ctx, "1")
	require.NoError(t, err)
	require.Contains(t, diff, "+b")

	base, work, continues, err = w.prepareApart(ctx, "1", "1")
	require.NoError(t, err)
	require.Equal(t, tip, base)
	require.Equal(t, first, work, "the retry continues the earlier work")
	require.True(t, continues)

	// The line moved (another phase landed a.txt's change).
	require.NoError(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("a, landed\n"), 0o644))
	runGit(t, root, "commit", "-q", "-am", "landed")
	newTip := runGit(t, root, "rev-parse", "HEAD")
	var log bytes.Buffer
	base, work, err = w.moveWorkOnto(ctx, "1", newTip, &log)
	require.NoError(t, err)
	require.Equal(t, newTip, base)
	require.Equal(t, newTip, runGit(t, root, "rev-parse", work+"^"), "the work is picked onto the new tip")
	require.Equal(t, "a, landed", runGit(t, root, "show", work+":a.txt"))
	require.Equal(t, "b", runGit(t, root, "show", work+":b.txt"))
	require.Contains(t, log.String(), "the earlier attempt's change on top")

	w.release(ctx, "1")
	require.Empty(t, w.spares, "nothing parked")
	require.Equal(t, []string{refs.Phase("1")}, w.landed, "its branch goes when the run stops")
}
