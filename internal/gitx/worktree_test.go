package gitx

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestWorktreeLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)
	head, err := r.Head(ctx, "")
	require.NoError(t, err)
	wt := filepath.Join(root, ".autobuild", "worktrees", "phase-1")

	require.NoError(t, r.AddWorktree(ctx, wt, "autobuild/phase-1", head))
	require.Equal(t, "line 1\n", readFile(t, wt, "f.txt")[:7])
	wtHead, err := r.Head(ctx, wt)
	require.NoError(t, err)
	require.Equal(t, head, wtHead)
	branches, err := r.Branches(ctx, "autobuild/")
	require.NoError(t, err)
	require.Equal(t, []string{"autobuild/phase-1"}, branches)

	// A crashed run left the worktree with changes and a commit on the
	// branch: adding it again starts over from start.
	writeFile(t, wt, "junk.txt", "junk\n")
	gitT(t, wt, "add", "-A")
	gitT(t, wt, "commit", "-q", "-m", "junk")
	writeFile(t, wt, "more-junk.txt", "junk\n")
	require.NoError(t, r.AddWorktree(ctx, wt, "autobuild/phase-1", head))
	require.NoFileExists(t, filepath.Join(wt, "junk.txt"))
	require.NoFileExists(t, filepath.Join(wt, "more-junk.txt"))
	wtHead, err = r.Head(ctx, wt)
	require.NoError(t, err)
	require.Equal(t, head, wtHead)

	require.NoError(t, r.RemoveWorktree(ctx, wt))
	require.NoDirExists(t, wt)
	require.NoError(t, r.RemoveWorktree(ctx, wt), "removing a missing worktree is fine")
	require.NoError(t, r.DeleteBranch(ctx, "autobuild/phase-1"))
	require.NoError(t, r.DeleteBranch(ctx, "autobuild/phase-1"), "deleting a missing branch is fine")
	branches, err = r.Branches(ctx, "autobuild/")
	require.NoError(t, err)
	require.Empty(t, branches)

	// A plain directory in the way (not a worktree) is replaced.
	writeFile(t, wt, "stray.txt", "x\n")
	require.NoError(t, r.AddWorktree(ctx, wt, "autobuild/phase-1", head))
	require.NoFileExists(t, filepath.Join(wt, "stray.txt"))

	// A worktree directory deleted by hand leaves a stale registration that
	// must not block adding the branch again elsewhere.
	require.NoError(t, os.RemoveAll(wt))
	wt2 := filepath.Join(root, ".autobuild", "worktrees", "phase-1b")
	require.NoError(t, r.AddWorktree(ctx, wt2, "autobuild/phase-1", head))
	require.NoError(t, r.RemoveWorktrees(ctx), "with no path: a prune")
	require.NotContains(t, gitT(t, root, "worktree", "list"), wt+" ")
}

func TestWorktreeGuard(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)
	require.Error(t, r.RemoveWorktree(ctx, root))
	require.Error(t, r.RemoveWorktree(ctx, filepath.Dir(root)))
	require.Error(t, r.RemoveWorktree(ctx, filepath.Join(root, ".git")))
	require.Error(t, r.AddWorktree(ctx, filepath.Join(root, ".git", "x"), "b", "HEAD"))
	require.FileExists(t, filepath.Join(root, "README.md"))
}

func TestAddWorktreeParallel(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)
	head, err := r.Head(ctx, "")
	require.NoError(t, err)

	const n = 10
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			wt := filepath.Join(root, ".autobuild", "worktrees", fmt.Sprintf("phase-%d", i))
			errs[i] = r.AddWorktree(ctx, wt, fmt.Sprintf("autobuild/phase-%d", i), head)
		})
	}
	wg.Wait()
	for i, err := range errs {
		require.NoError(t, err, "worktree %d", i)
	}
	branches, err := r.Branches(ctx, "autobuild/phase-")
	require.NoError(t, err)
	require.Len(t, branches, n)
	for i := range n {
		require.FileExists(t, filepath.Join(root, ".autobuild", "worktrees", fmt.Sprintf("phase-%d", i), "f.txt"))
	}
}

func TestCleanStale(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)
	head, err := r.Head(ctx, "")
	require.NoError(t, err)
	wts := filepath.Join(root, ".autobuild", "worktrees")
	for _, id := range []string{"1", "2a", "2b"} {
		require.NoError(t, r.AddWorktree(ctx, filepath.Join(wts, "phase-"+id), "autobuild/phase-"+id, head))
	}
	writeFile(t, filepath.Join(wts, "phase-2a"), "wip.txt", "uncommitted\n")
	writeFile(t, wts, "stray/file.txt", "x\n")
	// A read-only directory, as a Go module cache makes, must not stop it.
	writeFile(t, wts, "phase-1/modcache/pkg.go", "package x\n")
	require.NoError(t, os.Chmod(filepath.Join(wts, "phase-1", "modcache"), 0o555))
	gitT(t, root, "branch", "autobuild/leftover")
	gitT(t, root, "branch", "feature/mine")

	require.NoError(t, r.CleanStale(ctx, wts, "autobuild/"))

	entries, err := os.ReadDir(wts)
	require.NoError(t, err)
	require.Empty(t, entries)
	branches, err := r.Branches(ctx, "")
	require.NoError(t, err)
	require.Equal(t, []string{"feature/mine", "main"}, branches)
	require.Equal(t, 1, len(lines(gitT(t, root, "worktree", "list"))))

	require.NoError(t, r.CleanStale(ctx, filepath.Join(root, "nothing-here"), "autobuild/"), "nothing to clean is fine")
}

// A link under the worktrees directory is removed as a link: the worktree
// (or directory) it points at, the user's own, stays whole.
func TestCleanStaleRemovesLinksNotTheirTargets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)
	head, err := r.Head(ctx, "")
	require.NoError(t, err)
	mine := filepath.Join(t.TempDir(), "my-worktree")
	gitT(t, root, "worktree", "add", "-q", "-b", "mine", mine, head)
	writeFile(t, mine, "work.txt", "mine\n")
	other := t.TempDir()
	writeFile(t, other, "precious.txt", "keep\n")
	wts := filepath.Join(root, ".autobuild", "worktrees")
	require.NoError(t, os.MkdirAll(wts, 0o755))
	require.NoError(t, os.Symlink(mine, filepath.Join(wts, "phase-1")))
	require.NoError(t, os.Symlink(other, filepath.Join(wts, "phase-2")))

	require.NoError(t, r.RemoveWorktree(ctx, filepath.Join(wts, "phase-1")))
	require.NoError(t, r.CleanStale(ctx, wts, ""))

	entries, err := os.ReadDir(wts)
	require.NoError(t, err)
	require.Empty(t, entries, "the links are gone")
	require.FileExists(t, filepath.Join(mine, "work.txt"))
	require.FileExists(t, filepath.Join(other, "precious.txt"))
	require.Contains(t, gitT(t, root, "worktree", "list"), mine, "your worktree is still registered")
}

// Two Repos of one repository stand for two autobuild processes (runs in
// sibling worktrees): one's worktree changes wait for the other's, since
// git's prune in one would delete an entry the other's add is filling in.
func TestWorktreeChangesWaitForOtherProcesses(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)
	other, err := Open(ctx, root)
	require.NoError(t, err)
	head, err := r.Head(ctx, "")
	require.NoError(t, err)

	other.mu.Lock()
	unlock, err := other.lockWorktrees(ctx)
	require.NoError(t, err)
	wt := filepath.Join(root, ".autobuild", "worktrees", "phase-1")
	short, cancel := context.WithTimeout(ctx, 150*time.Millisecond)
	defer cancel()
	err = r.AddWorktree(short, wt, "autobuild/phase-1", head)
	require.ErrorContains(t, err, "locking the repository's worktree list")
	require.NoDirExists(t, wt, "nothing done while the other process holds the list")

	unlock()
	other.mu.Unlock()
	require.NoError(t, r.AddWorktree(ctx, wt, "autobuild/phase-1", head))
	require.NoError(t, r.RemoveWorktree(ctx, wt))
}

// RemoveWorktrees removes them all with one prune, and goes on past a path
// it refuses (the repository itself), which it reports.
func TestRemoveWorktrees(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root, base := newRepoAtBase(t)
	a := filepath.Join(root, ".autobuild", "worktrees", "spare-1")
	b := filepath.Join(root, ".autobuild", "worktrees", "spare-2")
	require.NoError(t, r.AddWorktree(ctx, a, "autobuild/a", base))
	require.NoError(t, r.AddWorktree(ctx, b, "autobuild/b", base))

	err := r.RemoveWorktrees(ctx, a, root, b)
	require.ErrorContains(t, err, "holds the repository itself")
	require.NoDirExists(t, a)
	require.NoDirExists(t, b)
	require.FileExists(t, filepath.Join(root, "README.md"))
	require.Equal(t, root+" "+base[:7]+" [main]", strings.Join(strings.Fields(gitT(t, root, "worktree", "list")), " "))
}

func TestAddWorktreeAlongsideWritesIgnoredFilesBesideTheCheckout(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)
	writeFile(t, root, ".gitignore", "node_modules/\n")
	gitT(t, root, "add", ".gitignore")
	gitT(t, root, "commit", "-q", "-m", "ignore")
	head, err := r.Head(ctx, "")
	require.NoError(t, err)

	wt := filepath.Join(root, ".autobuild", "worktrees", "phase-1")
	// ignored writes an ignored file into dir, as a phase's files are.
	ignored := func(dir, name string) error {
		p := filepath.Join(dir, "node_modules", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, []byte("module.exports = 1\n"), 0o644)
	}
	var registered, wrote error
	err = r.AddWorktreeAlongside(ctx, wt, "autobuild/phase-1", head, func() {
		// Called once the worktree is registered: its .git file is there.
		_, registered = os.Stat(filepath.Join(wt, ".git"))
		wrote = ignored(wt, "m/index.js")
	})
	require.NoError(t, err)
	require.NoError(t, registered)
	require.NoError(t, wrote)
	// Both done when it returns: the tracked files and the ignored one.
	require.FileExists(t, filepath.Join(wt, "f.txt"))
	require.FileExists(t, filepath.Join(wt, "node_modules", "m", "index.js"))
	require.Empty(t, gitT(t, wt, "status", "--porcelain"), "the worktree is clean: the file is ignored")

	// When the checkout fails, the worktree goes, after alongside is done.
	wt2 := filepath.Join(root, ".autobuild", "worktrees", "phase-2")
	cctx, cancel := context.WithCancel(ctx)
	err = r.AddWorktreeAlongside(cctx, wt2, "autobuild/phase-2", head, func() {
		cancel()
		_ = ignored(wt2, "late.js")
	})
	if err != nil {
		require.NoDirExists(t, wt2, "a worktree whose checkout failed is removed with what alongside wrote")
	}
}
