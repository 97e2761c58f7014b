package wtenv

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/gittest"
)

// fakeSnapshots are snapshot operations on any file system: a subvolume
// is a folder it remembers, a snapshot a copy of one. They take the
// snapshot path's logic where no btrfs is mounted.
type fakeSnapshots struct {
	mu    sync.Mutex
	subs  map[string]bool
	snaps []string
	// inodes are the subvolumes' (and snapshots') root folders: one
	// removed and made again as a folder is no subvolume.
	inodes map[string]uint64
}

// remember marks the folder p a subvolume. It keeps the folder open, so
// that a folder made there once it is removed gets another inode.
func (f *fakeSnapshots) remember(p string) {
	var st syscall.Stat_t
	_ = syscall.Lstat(p, &st)
	_, _ = syscall.Open(p, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.subs[p] = true
	f.inodes[p] = st.Ino
}

func (f *fakeSnapshots) isSub(p string) bool {
	var st syscall.Stat_t
	if syscall.Lstat(p, &st) != nil {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.subs[p] && f.inodes[p] == st.Ino
}

// subOf is the subvolume p lies in ("" for none).
func (f *fakeSnapshots) subOf(p string) string {
	for d := filepath.Dir(p); d != filepath.Dir(d); d = filepath.Dir(d) {
		if f.isSub(d) {
			return d
		}
	}
	return ""
}

func (f *fakeSnapshots) ops() Ops {
	f.subs, f.inodes = map[string]bool{}, map[string]uint64{}
	return Ops{
		Clone: func(src, dst string, mode os.FileMode) error { return copyFile(src, dst, mode) },
		// As btrfs: a hard link cannot cross from one subvolume to another.
		Link: func(src, dst string) error {
			if f.subOf(src) != f.subOf(dst) {
				return &os.LinkError{Op: "link", Old: src, New: dst, Err: syscall.EXDEV}
			}
			return os.Link(src, dst)
		},
		Subvolume: func(p string) error {
			if err := os.Mkdir(p, 0o755); err != nil {
				return err
			}
			f.remember(p)
			return nil
		},
		Snapshot: func(src, dst string) error {
			f.mu.Lock()
			ok := f.subs[src]
			f.mu.Unlock()
			if !ok {
				return os.ErrInvalid
			}
			f.mu.Lock()
			f.snaps = append(f.snaps, dst)
			f.mu.Unlock()
			if _, err := mirror(src, dst, filepath.Base(dst), copyTransfer); err != nil {
				return err
			}
			f.remember(dst)
			// A snapshot keeps its folders' times, as btrfs does.
			return filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
				if err != nil || !fi.IsDir() {
					return err
				}
				rel, _ := filepath.Rel(src, p)
				return os.Chtimes(filepath.Join(dst, rel), fi.ModTime(), fi.ModTime())
			})
		},
		IsSubvolume: f.isSub,
	}
}

func TestSnapshotsForFoldersWhereTheFileSystemHasThem(t *testing.T) {
	dir, wt := nodeRepo(t)
	cache := filepath.Join(dir, ".autobuild/worktree-files/node_modules")
	// A copy made before snapshots (a plain folder) is made a subvolume.
	write(t, filepath.Join(cache, "stale.js"), "old\n")
	f := &fakeSnapshots{}
	e := newEnv(t, dir, f.ops())
	res, err := e.Bring(context.Background(), wt)
	require.NoError(t, err)
	require.Equal(t, Snapshot, res.Mode)
	require.Contains(t, e.Choice(), "copy-on-write snapshots of autobuild's copy")
	require.Contains(t, e.Choice(), "for folders (node_modules/)")
	require.True(t, f.subs[cache], "autobuild's copy of node_modules is a subvolume")
	require.NoFileExists(t, filepath.Join(cache, "stale.js"))
	require.Equal(t, 4, res.Stats.Files)
	require.Equal(t, 3, res.Stats.Put-1, "node_modules' three files, by one snapshot, and .env")
	require.Equal(t, "module.exports = 1\n", read(t, filepath.Join(wt, "node_modules/ms/index.js")))
	require.Equal(t, "GREETING=hello\n", read(t, filepath.Join(wt, ".env")))
	require.NotEqual(t, inode(t, filepath.Join(cache, "ms/index.js")), inode(t, filepath.Join(wt, "node_modules/ms/index.js")))

	// A second worktree: a snapshot too, of the same copy.
	wt2 := filepath.Join(dir, ".autobuild", "worktrees", "phase-2")
	gitIn(t, dir, "worktree", "add", "-q", "-b", "phase-2", wt2)
	_, err = e.Bring(context.Background(), wt2)
	require.NoError(t, err)
	require.Equal(t, []string{filepath.Join(wt, "node_modules"), filepath.Join(wt2, "node_modules")}, f.snaps[1:], "after the probe's")
	require.Equal(t, "module.exports = 1\n", read(t, filepath.Join(wt2, "node_modules/ms/index.js")))

	// Reused: what an agent removed comes back, by a clone (a hard link
	// cannot cross into a snapshot); nothing else is put.
	require.NoError(t, os.Remove(filepath.Join(wt, "node_modules/ms/package.json")))
	res, err = e.Bring(context.Background(), wt)
	require.NoError(t, err)
	require.Equal(t, "{}\n", read(t, filepath.Join(wt, "node_modules/ms/package.json")))
	require.NotEqual(t, inode(t, filepath.Join(cache, "ms/package.json")), inode(t, filepath.Join(wt, "node_modules/ms/package.json")))
	res, err = e.Bring(context.Background(), wt)
	require.NoError(t, err)
	require.Zero(t, res.Stats.Put, "up to date: nothing put")
}

// TestSnapshotsStopping: a run where snapshots no longer work after one
// where they did (TestRealSnapshotsStopping on btrfs) makes autobuild's
// copy and a reused worktree's snapshot plain folders again: a hard link
// cannot leave a subvolume, and every file would be cloned on every run.
func TestSnapshotsStopping(t *testing.T) {
	dir, wt := nodeRepo(t)
	f := &fakeSnapshots{}
	ops := f.ops()
	_, err := newEnv(t, dir, ops).Bring(context.Background(), wt)
	require.NoError(t, err)
	cache := filepath.Join(dir, ".autobuild/worktree-files/node_modules")
	require.True(t, f.isSub(cache))
	require.True(t, f.isSub(filepath.Join(wt, "node_modules")))

	ops.Snapshot = func(string, string) error { return syscall.EPERM }
	e := newEnv(t, dir, ops)
	res, err := e.Bring(context.Background(), wt)
	require.NoError(t, err)
	require.Equal(t, Link, res.Mode)
	require.False(t, f.isSub(cache), "autobuild's copy is a plain folder again")
	require.False(t, f.isSub(filepath.Join(wt, "node_modules")), "so is the worktree's")
	require.Equal(t, inode(t, filepath.Join(cache, "ms/index.js")), inode(t, filepath.Join(wt, "node_modules/ms/index.js")), "a hard link to autobuild's copy")
}

// TestSnapshotEditedInPlaceIsRefreshed: a file of a snapshot is the
// worktree's own; an edit in place, which leaves its folder's time, is
// found when the worktree is reused in the same run (a pooled worktree,
// the verification worktree). TestRealSnapshotEditedInPlaceIsRefreshed on
// btrfs.
func TestSnapshotEditedInPlaceIsRefreshed(t *testing.T) {
	dir, wt := nodeRepo(t)
	f := &fakeSnapshots{}
	e := newEnv(t, dir, f.ops())
	_, err := e.Bring(context.Background(), wt)
	require.NoError(t, err)
	p := filepath.Join(wt, "node_modules/ms/index.js")
	editInPlace(t, p, "patched\n")
	res, err := e.Bring(context.Background(), wt)
	require.NoError(t, err)
	require.Equal(t, "module.exports = 1\n", read(t, p))
	require.Equal(t, 1, res.Stats.Put, "the edited file alone")
}

func TestNoSnapshotsWithoutClones(t *testing.T) {
	dir, wt := nodeRepo(t)
	f := &fakeSnapshots{}
	ops := f.ops()
	ops.Clone = noClone
	e := newEnv(t, dir, ops)
	res, err := e.Bring(context.Background(), wt)
	require.NoError(t, err)
	require.Equal(t, Link, res.Mode, "snapshots ride on a copy made of clones")
	require.Empty(t, f.subs)
}

// TestRealSnapshots takes btrfs's own subvolumes and snapshots: set
// AUTOBUILD_TEST_REFLINK_DIR to a folder on btrfs (see TestRealClones).
func TestRealSnapshots(t *testing.T) {
	dir, wt := realSnapshotRepo(t)
	e := newEnv(t, dir, SystemOps())
	res, err := e.Bring(context.Background(), wt)
	require.NoError(t, err)
	require.Equal(t, Snapshot, res.Mode, e.Choice())
	cache := filepath.Join(dir, ".autobuild/worktree-files/node_modules")
	require.True(t, isSubvolume(cache))
	require.True(t, isSubvolume(filepath.Join(wt, "node_modules")))

	wt2 := filepath.Join(dir, ".autobuild", "worktrees", "phase-2")
	gitIn(t, dir, "worktree", "add", "-q", "-b", "phase-2", wt2)
	_, err = e.Bring(context.Background(), wt2)
	require.NoError(t, err)

	// An edit in place in one worktree reaches nothing else.
	require.NoError(t, os.WriteFile(filepath.Join(wt, "node_modules/x/index.js"), []byte("edited\n"), 0o644))
	require.Equal(t, "x\n", read(t, filepath.Join(dir, "node_modules/x/index.js")))
	require.Equal(t, "x\n", read(t, filepath.Join(cache, "x/index.js")))
	require.Equal(t, "x\n", read(t, filepath.Join(wt2, "node_modules/x/index.js")))

	// Reused: a removed folder comes back, cloned into the snapshot.
	require.NoError(t, os.RemoveAll(filepath.Join(wt, "node_modules/y")))
	_, err = e.Bring(context.Background(), wt)
	require.NoError(t, err)
	require.Equal(t, "a\n", read(t, filepath.Join(wt, "node_modules/y/lib/a.js")))

	// Discarded and removed as any worktree's files.
	trash := filepath.Join(dir, ".autobuild", "worktree-files-trash")
	moved, err := e.Discard(trash, []string{wt, wt2})
	require.NoError(t, err)
	require.Equal(t, 4, moved)
	require.NoError(t, os.RemoveAll(trash))
	gitIn(t, dir, "worktree", "remove", "--force", wt)
	gitIn(t, dir, "worktree", "remove", "--force", wt2)
	require.NoDirExists(t, wt)
}

// realSnapshotRepo is a repository on the btrfs folder AUTOBUILD_TEST_REFLINK_DIR
// names, with a worktree; the test is skipped where there is none.
func realSnapshotRepo(t *testing.T) (dir, wt string) {
	t.Helper()
	base := os.Getenv("AUTOBUILD_TEST_REFLINK_DIR")
	if base == "" {
		t.Skip("AUTOBUILD_TEST_REFLINK_DIR is not set: no btrfs to take snapshots on")
	}
	tmp, err := os.MkdirTemp(base, "wtenv-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(tmp) })
	if !snapshotsWork(SystemOps(), filepath.Join(tmp, "probe-a"), tmp) {
		t.Skip("AUTOBUILD_TEST_REFLINK_DIR is not on btrfs")
	}
	dir = filepath.Join(tmp, "repo")
	gittest.New(t, gittest.At(dir), gittest.File(".gitignore", "node_modules/\n.env\n.autobuild/\n"), gittest.Message("init"))
	write(t, filepath.Join(dir, ".env"), "A=1\n")
	write(t, filepath.Join(dir, "node_modules/x/index.js"), "x\n")
	write(t, filepath.Join(dir, "node_modules/y/lib/a.js"), "a\n")
	return dir, worktree(t, dir)
}

// TestRealSnapshotsStopping: a run where snapshots no longer work (the
// probe fails) after one where they did finds autobuild's copy and a
// worktree's folder as subvolumes. A hard link cannot leave a subvolume
// (EXDEV): both are made plain folders again, so the worktrees get links
// again, not a clone per file on every run.
func TestRealSnapshotsStopping(t *testing.T) {
	dir, wt := realSnapshotRepo(t)
	_, err := newEnv(t, dir, SystemOps()).Bring(context.Background(), wt)
	require.NoError(t, err)
	cache := filepath.Join(dir, ".autobuild/worktree-files/node_modules")
	require.True(t, isSubvolume(cache))

	noSnapshots := SystemOps()
	noSnapshots.Snapshot = nil
	e := newEnv(t, dir, noSnapshots)
	wt2 := filepath.Join(dir, ".autobuild", "worktrees", "phase-2")
	gitIn(t, dir, "worktree", "add", "-q", "-b", "phase-2", wt2)
	res, err := e.Bring(context.Background(), wt2)
	require.NoError(t, err)
	require.Equal(t, Link, res.Mode)
	require.False(t, isSubvolume(cache), "autobuild's copy is a plain folder again")
	require.Equal(t, inode(t, filepath.Join(cache, "x/index.js")), inode(t, filepath.Join(wt2, "node_modules/x/index.js")), "a hard link to autobuild's copy")

	// The worktree whose folder was a snapshot, reused.
	_, err = e.Bring(context.Background(), wt)
	require.NoError(t, err)
	require.False(t, isSubvolume(filepath.Join(wt, "node_modules")))
	require.Equal(t, inode(t, filepath.Join(cache, "y/lib/a.js")), inode(t, filepath.Join(wt, "node_modules/y/lib/a.js")))
	require.Equal(t, "a\n", read(t, filepath.Join(wt, "node_modules/y/lib/a.js")))
}

// TestRealSnapshotEditedInPlaceIsRefreshed: a file of a snapshot is the
// worktree's own, so an edit in place (which leaves its folder's time) is
// found when the worktree is reused in the same run (a pooled worktree,
// the verification worktree), as a copied file's is.
func TestRealSnapshotEditedInPlaceIsRefreshed(t *testing.T) {
	dir, wt := realSnapshotRepo(t)
	e := newEnv(t, dir, SystemOps())
	_, err := e.Bring(context.Background(), wt)
	require.NoError(t, err)
	require.True(t, isSubvolume(filepath.Join(wt, "node_modules")))
	f := filepath.Join(wt, "node_modules/x/index.js")
	editInPlace(t, f, "patched\n")
	res, err := e.Bring(context.Background(), wt)
	require.NoError(t, err)
	require.Equal(t, "x\n", read(t, f), "the reused worktree holds autobuild's copy again")
	require.Equal(t, 1, res.Stats.Put, "the edited file alone")
}

// A copy the run's check changes in nothing keeps the stamp an earlier
// run gave it (btrfs would otherwise write 4,000 folders' times each run
// before the first snapshot); one that changed is stamped anew.
func TestSnapshotSourceKeepsItsStampWhileUnchanged(t *testing.T) {
	dir, wt := nodeRepo(t)
	cache := filepath.Join(dir, ".autobuild/worktree-files/node_modules")
	f := &fakeSnapshots{}
	ops := f.ops()
	run := func(stamp int64) *Env {
		e := newEnv(t, dir, ops)
		e.stamp = time.Unix(stamp, 0)
		return e
	}
	first := run(stampFrom + 100)
	_, err := first.Bring(context.Background(), wt)
	require.NoError(t, err)
	fi, err := os.Stat(filepath.Join(cache, "ms"))
	require.NoError(t, err)
	require.Equal(t, first.stamp, fi.ModTime())

	// The next run, nothing changed: the copy keeps the first run's stamp,
	// and the worktree made then is up to date without a file put.
	second := run(stampFrom + 200)
	res, err := second.Bring(context.Background(), wt)
	require.NoError(t, err)
	require.Zero(t, res.Stats.Put)
	fi, err = os.Stat(filepath.Join(cache, "ms"))
	require.NoError(t, err)
	require.Equal(t, first.stamp, fi.ModTime(), "not stamped again")

	// A file changed in your checkout: the copy is stamped with the run's.
	write(t, filepath.Join(dir, "node_modules/ms/index.js"), "module.exports = 2\n")
	third := run(stampFrom + 300)
	_, err = third.Bring(context.Background(), wt)
	require.NoError(t, err)
	fi, err = os.Stat(filepath.Join(cache, "ms"))
	require.NoError(t, err)
	require.Equal(t, third.stamp, fi.ModTime())
	require.Equal(t, "module.exports = 2\n", read(t, filepath.Join(wt, "node_modules/ms/index.js")))
}

func TestIsStamp(t *testing.T) {
	now := time.Now()
	require.True(t, isStamp(runStamp(now)))
	require.False(t, isStamp(now), "a time a write gives")
	require.False(t, isStamp(time.Unix(stampFrom+5, 1)))
}

// editInPlace rewrites the file p in place (the same inode), as an agent's
// editor may: its folder's time does not move.
func editInPlace(t *testing.T, p, content string) {
	t.Helper()
	fh, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
	require.NoError(t, err)
	_, err = fh.WriteString(content)
	require.NoError(t, err)
	require.NoError(t, fh.Close())
}
