package gitx

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// A landed phase's worktree is parked and taken over by the next phase: it
// moves to the new phase's path, on the new phase's branch at the new
// start, holding exactly what a new worktree would (the earlier phase's
// files, untracked and ignored ones included, are gone), and the earlier
// phase's branch is deleted.
func TestParkAndReuseWorktree(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root, start := newRepoAtHead(t)
	one, spare, two := worktreePaths(root)

	require.NoError(t, r.AddWorktree(ctx, one, "autobuild/phase-1", start))
	writeFile(t, one, "one.txt", "phase 1\n")
	writeFile(t, one, ".gitignore", "*.log\n")
	sha, _, err := r.CommitAll(ctx, one, "phase 1")
	require.NoError(t, err)
	writeFile(t, one, "left.txt", "untracked\n")
	writeFile(t, one, "build.log", "ignored\n")
	writeFile(t, one, "nested/x.txt", "untracked dir\n")

	require.NoError(t, r.ParkWorktree(ctx, one, spare))
	require.NoDirExists(t, one)
	require.DirExists(t, spare)

	require.NoError(t, r.ReuseWorktree(ctx, spare, two, "autobuild/phase-2", sha))
	require.NoDirExists(t, spare)
	for _, gone := range []string{"left.txt", "build.log", "nested"} {
		require.NoFileExists(t, filepath.Join(two, gone))
	}
	require.Equal(t, "phase 1\n", readFile(t, two, "one.txt"), "the new start's files are there")
	require.Equal(t, "autobuild/phase-2", gitT(t, two, "branch", "--show-current"))
	require.Empty(t, gitT(t, two, "status", "--porcelain"))
	head, err := r.Head(ctx, two)
	require.NoError(t, err)
	require.Equal(t, sha, head)
	require.Equal(t, start, gitT(t, root, "rev-parse", "HEAD"), "your branch did not move")

	require.NoError(t, r.DeleteBranches(ctx, []string{"autobuild/phase-1", "autobuild/never-made"}))
	branches, err := r.Branches(ctx, "autobuild/")
	require.NoError(t, err)
	require.Equal(t, []string{"autobuild/phase-2"}, branches, "only the landed phase's branch is gone")
}

// A parked worktree whose .git file is gone is not a worktree any more: git
// run in it would act on your repository around it. Reusing it is refused,
// and your branch and files are untouched.
func TestReuseRefusesAWorktreeWithoutItsGitFile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root, start := newRepoAtHead(t)
	one, spare, two := worktreePaths(root)
	require.NoError(t, r.AddWorktree(ctx, one, "autobuild/phase-1", start))
	require.NoError(t, r.ParkWorktree(ctx, one, spare))
	require.NoError(t, os.Remove(filepath.Join(spare, ".git")))
	writeFile(t, root, "mine.txt", "your untracked work\n")

	err := r.ReuseWorktree(ctx, spare, two, "autobuild/phase-2", start)
	require.ErrorContains(t, err, "not a worktree of this repository")
	require.Equal(t, "your untracked work\n", readFile(t, root, "mine.txt"))
	require.Equal(t, start, gitT(t, root, "rev-parse", "HEAD"))
	require.NotEqual(t, "autobuild/phase-2", gitT(t, root, "branch", "--show-current"))
}

// newRepoAtHead is newRepo and its HEAD.
func newRepoAtHead(t *testing.T) (*Repo, string, string) {
	t.Helper()
	r, root := newRepo(t)
	head, err := r.Head(context.Background(), "")
	require.NoError(t, err)
	return r, root, head
}

// worktreePaths are the paths of phase 1's worktree, the spare it is parked
// as, and phase 2's worktree.
func worktreePaths(root string) (one, spare, two string) {
	dir := filepath.Join(root, ".autobuild", "worktrees")
	return filepath.Join(dir, "phase-1"), filepath.Join(dir, "spare-1"), filepath.Join(dir, "phase-2")
}

// A reused worktree keeps the ignored paths it is told to keep, and loses
// every other untracked or ignored file.
func TestReuseWorktreeKeepsWhatItIsTold(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root, start := newRepoAtHead(t)
	one, spare, two := worktreePaths(root)
	require.NoError(t, r.AddWorktree(ctx, one, "autobuild/phase-1", start))
	writeFile(t, one, ".gitignore", "node_modules/\n.env\n*.log\n")
	sha, _, err := r.CommitAll(ctx, one, "ignore")
	require.NoError(t, err)
	for _, f := range []string{"node_modules/x/i.js", ".env", "debug.log", "untracked.txt"} {
		writeFile(t, one, f, "x\n")
	}
	require.NoError(t, r.ParkWorktree(ctx, one, spare))
	require.NoError(t, r.ReuseWorktree(ctx, spare, two, "autobuild/phase-2", sha, "/node_modules", "/.env"))
	for f, kept := range map[string]bool{"node_modules/x/i.js": true, ".env": true, "debug.log": false, "untracked.txt": false} {
		_, err := os.Stat(filepath.Join(two, f))
		require.Equal(t, kept, err == nil, f)
	}
}
