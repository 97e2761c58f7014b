package wtenv

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/gittest"
)

// nodeRepo is a checkout with an ignored node_modules and .env, and a
// worktree of it.
func nodeRepo(t *testing.T) (dir, wt string) {
	t.Helper()
	dir = repo(t, map[string]string{".gitignore": "node_modules/\n.env\n.autobuild/\n", "index.js": "require('ms')\n"},
		map[string]string{".env": "GREETING=hello\n", "node_modules/ms/index.js": "module.exports = 1\n",
			"node_modules/ms/package.json": "{}\n"})
	require.NoError(t, os.Symlink("../ms/index.js", filepath.Join(dir, "node_modules", "ms", "link.js")))
	return dir, worktree(t, dir)
}

// noClone is a file system that cannot clone.
func noClone(string, string, os.FileMode) error { return syscall.EOPNOTSUPP }

func newEnv(t *testing.T, dir string, ops Ops) *Env {
	t.Helper()
	pats, err := Patterns(dir, []string{".env", "node_modules"})
	require.NoError(t, err)
	return New(dir, filepath.Join(dir, ".autobuild", "worktree-files"), pats, ops)
}

func inode(t *testing.T, p string) uint64 {
	t.Helper()
	fi, err := os.Stat(p)
	require.NoError(t, err)
	return fi.Sys().(*syscall.Stat_t).Ino
}

func TestHardLinksNeverReachYourFiles(t *testing.T) {
	dir, wt := nodeRepo(t)
	e := newEnv(t, dir, Ops{Clone: noClone, Link: os.Link})
	res, err := e.Bring(context.Background(), wt)
	require.NoError(t, err)
	require.Equal(t, Link, res.Mode)
	require.Contains(t, e.Choice(), "this file system cannot clone")
	require.Equal(t, 4, res.Stats.Files)

	mod, yours := filepath.Join(wt, "node_modules/ms/index.js"), filepath.Join(dir, "node_modules/ms/index.js")
	cached := filepath.Join(dir, ".autobuild/worktree-files/node_modules/ms/index.js")
	require.Equal(t, inode(t, cached), inode(t, mod), "a dependency file is a hard link to autobuild's copy")
	require.NotEqual(t, inode(t, yours), inode(t, mod), "never to your file")
	target, err := os.Readlink(filepath.Join(wt, "node_modules/ms/link.js"))
	require.NoError(t, err)
	require.Equal(t, "../ms/index.js", target)

	// An edit in place through the link (open, truncate, write: what an
	// editor's plain save does) and an edit of the copied .env.
	require.NoError(t, os.WriteFile(mod, []byte("edited by the agent\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(wt, ".env"), []byte("GREETING=changed\n"), 0o644))
	require.Equal(t, "module.exports = 1\n", read(t, yours))
	require.Equal(t, "GREETING=hello\n", read(t, filepath.Join(dir, ".env")))
	var st syscall.Stat_t
	require.NoError(t, syscall.Stat(filepath.Join(wt, ".env"), &st))
	require.EqualValues(t, 1, st.Nlink, ".env is copied, never linked")

	// The next run brings the worktree (reused) up to date: autobuild's
	// copy was edited through the link, so it is copied anew from yours.
	e2 := newEnv(t, dir, Ops{Clone: noClone, Link: os.Link})
	res, err = e2.Bring(context.Background(), wt)
	require.NoError(t, err)
	require.Equal(t, "module.exports = 1\n", read(t, mod))
	require.Equal(t, "GREETING=hello\n", read(t, filepath.Join(wt, ".env")))
	require.Equal(t, 2, res.Stats.Put, "the edited file and .env, nothing else: %+v", res.Stats)
}

func TestCloneWhenTheFileSystemCannotLink(t *testing.T) {
	dir, wt := nodeRepo(t)
	var clones atomic.Int32
	fakeClone := func(src, dst string, mode os.FileMode) error {
		clones.Add(1)
		return copyFile(src, dst, mode)
	}
	e := newEnv(t, dir, Ops{Clone: fakeClone, Link: func(string, string) error { return syscall.EPERM }})
	res, err := e.Bring(context.Background(), wt)
	require.NoError(t, err)
	require.Equal(t, Clone, res.Mode)
	require.EqualValues(t, 1+3, clones.Load(), "the probe, then every regular file")
	require.Equal(t, "GREETING=hello\n", read(t, filepath.Join(wt, ".env")))
	_, err = os.Stat(filepath.Join(dir, ".autobuild/worktree-files/node_modules"))
	require.True(t, os.IsNotExist(err), "no copy of its own is needed")
}

// TestLinksToAClonedCopyWhenTheFileSystemClonesAndLinks: where both work,
// autobuild's copy is made by the cloner, the dependency files are hard
// links to that copy (never to yours), .env is a clone; an edit in place
// through a link changes autobuild's copy, never your file.
func TestLinksToAClonedCopyWhenTheFileSystemClonesAndLinks(t *testing.T) {
	dir, wt := nodeRepo(t)
	var mu sync.Mutex
	cloned := map[string]string{} // dst -> src
	fakeClone := func(src, dst string, mode os.FileMode) error {
		if err := copyFile(src, dst, mode); err != nil {
			return err
		}
		mu.Lock()
		cloned[dst] = src
		mu.Unlock()
		return nil
	}
	e := newEnv(t, dir, Ops{Clone: fakeClone, Link: os.Link})
	res, err := e.Bring(context.Background(), wt)
	require.NoError(t, err)
	require.Equal(t, Link, res.Mode)
	require.Contains(t, e.Choice(), "copy-on-write clones of yours")
	require.Contains(t, e.Choice(), "clones of the rest")

	cacheDir := filepath.Join(dir, ".autobuild/worktree-files")
	yours, cached, mod := filepath.Join(dir, "node_modules/ms/index.js"), filepath.Join(cacheDir, "node_modules/ms/index.js"), filepath.Join(wt, "node_modules/ms/index.js")
	require.Equal(t, yours, cloned[cached], "autobuild's copy is made by the cloner")
	require.Equal(t, filepath.Join(dir, ".env"), cloned[filepath.Join(cacheDir, ".env")])
	require.Equal(t, inode(t, cached), inode(t, mod), "a dependency file is a hard link to autobuild's copy")
	require.NotEqual(t, inode(t, yours), inode(t, mod), "never to your file")
	_, linked := cloned[mod]
	require.False(t, linked, "a dependency file is linked, not cloned")
	require.Equal(t, filepath.Join(cacheDir, ".env"), cloned[filepath.Join(wt, ".env")], ".env is a clone")
	var st syscall.Stat_t
	require.NoError(t, syscall.Stat(filepath.Join(wt, ".env"), &st))
	require.EqualValues(t, 1, st.Nlink, ".env is never linked")

	require.NoError(t, os.WriteFile(mod, []byte("edited by the agent\n"), 0o644))
	require.Equal(t, "edited by the agent\n", read(t, cached), "the edit changes autobuild's copy")
	require.Equal(t, "module.exports = 1\n", read(t, yours), "never your file")
}

func TestPlainCopyWhenNeitherWorks(t *testing.T) {
	dir, wt := nodeRepo(t)
	e := newEnv(t, dir, Ops{Clone: noClone, Link: func(string, string) error { return syscall.EXDEV }})
	res, err := e.Bring(context.Background(), wt)
	require.NoError(t, err)
	require.Equal(t, Copy, res.Mode)
	require.Contains(t, e.Choice(), "nor hard-link")
	require.NotEqual(t, inode(t, filepath.Join(dir, "node_modules/ms/index.js")), inode(t, filepath.Join(wt, "node_modules/ms/index.js")))
	require.Equal(t, "module.exports = 1\n", read(t, filepath.Join(wt, "node_modules/ms/index.js")))
}

// TestPlainCopyAcrossFileSystems takes the real system calls: the checkout
// and autobuild's copy (in its .autobuild/) on a tmpfs (/dev/shm), the
// worktree elsewhere, so neither a clone nor a hard link can be made.
func TestPlainCopyAcrossFileSystems(t *testing.T) {
	shm, err := os.MkdirTemp("/dev/shm", "wtenv-")
	if err != nil {
		t.Skip("no /dev/shm tmpfs here:", err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(shm) })
	var a, b syscall.Stat_t
	other := t.TempDir()
	if syscall.Stat(shm, &a) != nil || syscall.Stat(other, &b) != nil || a.Dev == b.Dev {
		t.Skip("/dev/shm is on the same file system as the temporary folder")
	}
	dir := filepath.Join(shm, "repo")
	gittest.New(t, gittest.At(dir), gittest.File(".gitignore", "node_modules/\n.env\n"), gittest.Message("init"))
	write(t, filepath.Join(dir, ".env"), "A=1\n")
	write(t, filepath.Join(dir, "node_modules/x/index.js"), "x\n")
	wt := filepath.Join(other, "wt")
	gitIn(t, dir, "worktree", "add", "-q", "-b", "p", wt)
	pats, _ := Patterns(dir, []string{".env", "node_modules"})
	e := New(dir, filepath.Join(dir, ".autobuild", "worktree-files"), pats, SystemOps())
	res, err := e.Bring(context.Background(), wt)
	require.NoError(t, err)
	require.Equal(t, Copy, res.Mode)
	require.Equal(t, "x\n", read(t, filepath.Join(wt, "node_modules/x/index.js")))
}

func TestProbe(t *testing.T) {
	dir := t.TempDir()
	sample := filepath.Join(dir, "f")
	write(t, sample, "x")
	dst := t.TempDir()
	ok := func(string, string) error { return nil }
	okClone := func(string, string, os.FileMode) error { return nil }
	exdev := func(string, string, os.FileMode) error { return &os.LinkError{Err: syscall.EXDEV} }
	no := func(string, string) error { return errors.New("no") }
	m, _, cloned := probe(Ops{Clone: okClone, Link: ok}, sample, filepath.Join(dir, "cache"), dst)
	require.Equal(t, Link, m, "clones and links: links to a cloned copy")
	require.True(t, cloned)
	m, _, cloned = probe(Ops{Clone: okClone, Link: no}, sample, filepath.Join(dir, "cache"), dst)
	require.Equal(t, Clone, m, "clones only")
	require.False(t, cloned)
	m, why, cloned := probe(Ops{Clone: exdev, Link: os.Link}, sample, filepath.Join(dir, "cache"), dst)
	require.Equal(t, Link, m, "links only")
	require.False(t, cloned)
	require.Contains(t, why, "different file systems")
	m, _, cloned = probe(Ops{Clone: noClone, Link: no}, sample, filepath.Join(dir, "cache"), dst)
	require.Equal(t, Copy, m, "neither")
	require.False(t, cloned)
}

// TestSystemCloneOnThisFileSystem records what the real FICLONE does here:
// a clone where the file system has them (btrfs, xfs), else an error and
// no file left behind.
func TestSystemCloneOnThisFileSystem(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	write(t, src, "content\n")
	dst := filepath.Join(dir, "dst")
	if err := cloneFile(src, dst, 0o644); err != nil {
		_, serr := os.Stat(dst)
		require.True(t, os.IsNotExist(serr), "a failed clone leaves no file")
		t.Logf("this file system cannot clone: %v", err)
		return
	}
	require.Equal(t, "content\n", read(t, dst))
}

func TestDropsWhatTheWorktreeDoesNotIgnore(t *testing.T) {
	dir, wt := nodeRepo(t)
	// The phase's base no longer ignores .env.
	write(t, filepath.Join(wt, ".gitignore"), "node_modules/\n")
	e := newEnv(t, dir, Ops{Clone: noClone, Link: os.Link})
	res, err := e.Bring(context.Background(), wt)
	require.NoError(t, err)
	require.Equal(t, []string{".env"}, res.Dropped)
	_, err = os.Stat(filepath.Join(wt, ".env"))
	require.True(t, os.IsNotExist(err))
}

// TestRealClones takes the real FICLONE on a file system that has it:
// set AUTOBUILD_TEST_REFLINK_DIR to a folder on btrfs or xfs (a loop
// mount: truncate -s 2G img; mkfs.btrfs img; mount -o loop img DIR).
func TestRealClones(t *testing.T) {
	base := os.Getenv("AUTOBUILD_TEST_REFLINK_DIR")
	if base == "" {
		t.Skip("AUTOBUILD_TEST_REFLINK_DIR is not set: no file system with copy-on-write clones to test on")
	}
	tmp, err := os.MkdirTemp(base, "wtenv-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(tmp) })
	dir := filepath.Join(tmp, "repo")
	gittest.New(t, gittest.At(dir), gittest.File(".gitignore", "node_modules/\n.env\n.autobuild/\n"), gittest.Message("init"))
	write(t, filepath.Join(dir, ".env"), "A=1\n")
	write(t, filepath.Join(dir, "node_modules/x/index.js"), "x\n")
	wt := worktree(t, dir)
	// Without snapshots (TestRealSnapshots has them): links to autobuild's copy,
	// made of clones.
	noSnapshots := SystemOps()
	noSnapshots.Snapshot = nil
	e := newEnv(t, dir, noSnapshots)
	res, err := e.Bring(context.Background(), wt)
	require.NoError(t, err)
	// btrfs clones and hard-links: links to autobuild's copy, made of clones.
	require.Equal(t, Link, res.Mode)
	require.True(t, e.cacheClone)
	require.Contains(t, e.Choice(), "copy-on-write clones of yours")
	cached := filepath.Join(dir, ".autobuild/worktree-files/node_modules/x/index.js")
	require.Equal(t, inode(t, cached), inode(t, filepath.Join(wt, "node_modules/x/index.js")))
	require.NotEqual(t, inode(t, filepath.Join(dir, "node_modules/x/index.js")), inode(t, cached))
	require.NoError(t, os.WriteFile(filepath.Join(wt, "node_modules/x/index.js"), []byte("edited\n"), 0o644))
	require.Equal(t, "x\n", read(t, filepath.Join(dir, "node_modules/x/index.js")))
	require.NotEqual(t, inode(t, filepath.Join(dir, ".env")), inode(t, filepath.Join(wt, ".env")))
	require.NotEqual(t, inode(t, filepath.Join(dir, ".autobuild/worktree-files/.env")), inode(t, filepath.Join(wt, ".env")))

	// Where links fail, the clones go straight into the worktree.
	wt2 := filepath.Join(dir, ".autobuild", "worktrees", "phase-2")
	gitIn(t, dir, "worktree", "add", "-q", "-b", "phase-2", wt2)
	ops := noSnapshots
	ops.Link = func(string, string) error { return syscall.EPERM }
	e2 := newEnv(t, dir, ops)
	res, err = e2.Bring(context.Background(), wt2)
	require.NoError(t, err)
	require.Equal(t, Clone, res.Mode)
	require.NoError(t, os.WriteFile(filepath.Join(wt2, "node_modules/x/index.js"), []byte("edited\n"), 0o644))
	require.Equal(t, "x\n", read(t, filepath.Join(dir, "node_modules/x/index.js")))
}
