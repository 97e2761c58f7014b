package gitx

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestOpen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("not a repository", func(t *testing.T) {
		t.Parallel()
		_, err := Open(ctx, t.TempDir())
		require.ErrorIs(t, err, ErrNotRepo)
		require.Contains(t, err.Error(), "is not inside a git repository")
		require.Contains(t, err.Error(), "git init first")
	})

	t.Run("bare repository", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		gitT(t, dir, "init", "-q", "--bare")
		_, err := Open(ctx, dir)
		require.ErrorIs(t, err, ErrNotRepo)
	})

	t.Run("subdirectory opens the root", func(t *testing.T) {
		t.Parallel()
		r, root := newRepo(t)
		sub := filepath.Join(root, "a", "b")
		require.NoError(t, os.MkdirAll(sub, 0o755))
		r2, err := Open(ctx, sub)
		require.NoError(t, err)
		require.Equal(t, r.Root(), r2.Root())
		real, err := filepath.EvalSymlinks(root)
		require.NoError(t, err)
		require.Equal(t, real, r2.Root())
	})
}

func TestHeadAndCurrentBranch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)

	head, err := r.Head(ctx, "")
	require.NoError(t, err)
	require.Equal(t, gitT(t, root, "rev-parse", "HEAD"), head)

	branch, err := r.CurrentBranch(ctx)
	require.NoError(t, err)
	require.Equal(t, "main", branch)
	branch, both, err := r.BranchHead(ctx)
	require.NoError(t, err)
	require.Equal(t, "main", branch)
	require.Equal(t, head, both)

	gitT(t, root, "switch", "-q", "-c", "feature/x")
	branch, _, err = r.BranchHead(ctx)
	require.NoError(t, err)
	require.Equal(t, "feature/x", branch)

	gitT(t, root, "checkout", "-q", "--detach")
	branch, err = r.CurrentBranch(ctx)
	require.NoError(t, err)
	require.Empty(t, branch)
	branch, both, err = r.BranchHead(ctx)
	require.NoError(t, err)
	require.Empty(t, branch, "detached")
	require.Equal(t, head, both)

	empty := t.TempDir()
	gitT(t, empty, "init", "-q", "-b", "main")
	re, err := Open(ctx, empty)
	require.NoError(t, err)
	_, err = re.Head(ctx, "")
	require.ErrorIs(t, err, ErrNoCommits)
}

func TestExcludeAndDirty(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)

	dirty, err := r.Dirty(ctx)
	require.NoError(t, err)
	require.Empty(t, dirty)

	writeFile(t, root, ".autobuild/run.json", "{}")
	dirty, err = r.Dirty(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"?? .autobuild/"}, dirty)

	// A hand-written exclude file without a final newline stays intact.
	excl := filepath.Join(root, ".git", "info", "exclude")
	require.NoError(t, os.WriteFile(excl, []byte("*.tmp"), 0o644))
	require.NoError(t, r.Exclude("/.autobuild/"))
	require.NoError(t, r.Exclude("/.autobuild/"))
	data, err := os.ReadFile(excl)
	require.NoError(t, err)
	require.Equal(t, "*.tmp\n/.autobuild/\n", string(data))

	dirty, err = r.Dirty(ctx)
	require.NoError(t, err)
	require.Empty(t, dirty)

	writeFile(t, root, "f.txt", "changed\n")
	writeFile(t, root, "new.txt", "x\n")
	dirty, err = r.Dirty(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{" M f.txt", "?? new.txt"}, dirty)
}

func TestExcludeCreatesInfoDir(t *testing.T) {
	t.Parallel()
	r, root := newRepo(t)
	require.NoError(t, os.RemoveAll(filepath.Join(root, ".git", "info")))
	require.NoError(t, r.Exclude(".autobuild/"))
	data, err := os.ReadFile(filepath.Join(root, ".git", "info", "exclude"))
	require.NoError(t, err)
	require.Equal(t, ".autobuild/\n", string(data))
}

func TestStatusFiles(t *testing.T) {
	t.Parallel()
	_, root := newRepo(t)
	writeFile(t, root, "f.txt", "changed\n")
	writeFile(t, root, "dir/sub/new file.txt", "x\n")
	writeFile(t, root, "ünïcode.txt", "x\n")
	require.NoError(t, os.Remove(filepath.Join(root, "README.md")))

	files, err := StatusFiles(context.Background(), root)
	require.NoError(t, err)
	require.Equal(t, []string{"README.md", "dir/sub/new file.txt", "f.txt", "ünïcode.txt"}, files)

	gitT(t, root, "add", "-A")
	gitT(t, root, "commit", "-q", "-m", "more")
	gitT(t, root, "mv", "f.txt", "g.txt")
	files, err = StatusFiles(context.Background(), root)
	require.NoError(t, err)
	require.Equal(t, []string{"f.txt", "g.txt"}, files)
}

func TestIdentity(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("configured identity is used", func(t *testing.T) {
		t.Parallel()
		r, root := newRepo(t)
		writeFile(t, root, "x.txt", "x\n")
		_, _, err := r.CommitAll(ctx, "", "add x")
		require.NoError(t, err)
		require.Equal(t, "Test User <test@example.com>", gitT(t, root, "log", "-1", "--format=%an <%ae>"))
	})

	t.Run("fallback without identity", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		gitT(t, dir, "init", "-q", "-b", "main")
		r, err := Open(ctx, dir)
		require.NoError(t, err)
		writeFile(t, dir, "x.txt", "x\n")
		sha, ch, err := r.CommitAll(ctx, "", "first")
		require.NoError(t, err)
		require.NotEmpty(t, sha)
		require.Equal(t, []string{"x.txt"}, ch.Created)
		require.Equal(t, "autobuild <autobuild@localhost>", gitT(t, dir, "log", "-1", "--format=%cn <%ce>"))
	})
}

func TestGitErrorCarriesStderr(t *testing.T) {
	t.Parallel()
	r, _ := newRepo(t)
	err := r.FastForward(context.Background(), "", "no-such-ref")
	require.Error(t, err)
	require.True(t, strings.HasPrefix(err.Error(), "git merge: exit status"), err.Error())
	require.Contains(t, err.Error(), "no-such-ref")
}

func TestCanceledContext(t *testing.T) {
	t.Parallel()
	r, _ := newRepo(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := r.Head(ctx, "")
	require.ErrorIs(t, err, context.Canceled)
}

// HeadAndStatusFiles says in one command what Head and StatusFiles say in
// two, whatever the tree holds: changes, deletions, spaces and non-ASCII in
// names, untracked directories file by file, a staged rename, a nested
// repository, a conflicted file.
func TestHeadAndStatusFilesAgreesWithTheTwo(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)
	same := func(step string) {
		t.Helper()
		head, files, err := HeadAndStatusFiles(ctx, root)
		require.NoError(t, err, step)
		wantHead, err := r.Head(ctx, "")
		require.NoError(t, err)
		wantFiles, err := StatusFiles(ctx, root)
		require.NoError(t, err)
		require.Equal(t, wantHead, head, step)
		require.Equal(t, wantFiles, files, step)
	}
	same("clean")
	writeFile(t, root, "f.txt", "changed\n")
	writeFile(t, root, "dir/sub/new file.txt", "x\n")
	writeFile(t, root, "ünïcode name.txt", "x\n")
	require.NoError(t, os.Remove(filepath.Join(root, "README.md")))
	same("changed, new, deleted")
	gitT(t, root, "add", "-A")
	gitT(t, root, "commit", "-q", "-m", "more")
	gitT(t, root, "mv", "f.txt", "g h.txt")
	same("a staged rename")
	gitT(t, root, "commit", "-q", "-m", "renamed")
	nested := filepath.Join(root, "vendor", "lib")
	gitT(t, root, "init", "-q", nested[len(root)+1:])
	writeFile(t, nested, "x.go", "package x\n")
	same("a nested repository")
	require.NoError(t, os.RemoveAll(filepath.Join(root, "vendor")))

	base := gitT(t, root, "rev-parse", "HEAD")
	gitT(t, root, "switch", "-q", "-c", "other")
	writeFile(t, root, "g h.txt", "theirs\n")
	gitT(t, root, "commit", "-q", "-am", "theirs")
	gitT(t, root, "switch", "-q", "main")
	writeFile(t, root, "g h.txt", "ours\n")
	gitT(t, root, "commit", "-q", "-am", "ours")
	cmd := exec.Command("git", "merge", "-q", "other")
	cmd.Dir = root
	require.Error(t, cmd.Run(), "the merge conflicts")
	same("a conflicted file")
	require.NotEqual(t, base, gitT(t, root, "rev-parse", "HEAD"))

	empty := t.TempDir()
	gitT(t, empty, "init", "-q", "-b", "main")
	_, _, err := HeadAndStatusFiles(ctx, empty)
	require.ErrorIs(t, err, ErrNoCommits)
}
