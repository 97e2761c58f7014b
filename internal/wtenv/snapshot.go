package wtenv

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/autobuild-sh/autobuild/internal/gitx"
)

// On btrfs a folder of autobuild's copy (node_modules) is a subvolume of
// its own, and a new worktree's folder is a snapshot of it: one ioctl for
// the whole folder, however many files it holds, where hard links cost a
// link() per file. A snapshot is a copy-on-write copy of the folder: an
// edit in a worktree (in place or not) reaches neither autobuild's copy,
// nor your files, nor another worktree. Snapshotting a subvolume needs
// only to own it (autobuild made it), no privileges; removing one is
// rm -rf's rmdir of its emptied root (Linux 4.18 and later).

// snapshotsWork tries a subvolume in cacheDir and its snapshot in
// dstDir, and removes both.
func snapshotsWork(ops Ops, cacheDir, dstDir string) bool {
	if ops.Subvolume == nil || ops.Snapshot == nil || ops.IsSubvolume == nil {
		return false
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return false
	}
	src, dst := filepath.Join(cacheDir, ".autobuild-probe-subvolume"), filepath.Join(dstDir, ".autobuild-probe-snapshot")
	_ = os.Remove(src)
	_ = os.Remove(dst)
	if err := ops.Subvolume(src); err != nil {
		return false
	}
	err := ops.Snapshot(src, dst)
	// An empty subvolume is removed as a folder is; one that cannot be
	// (an old kernel) would be left behind, so snapshots are not used.
	gone := errors.Join(os.Remove(dst), os.Remove(src))
	return err == nil && gone == nil
}

// ensureSubvolume makes dir (autobuild's copy of a folder) a subvolume: a
// folder there that is not one (a copy made before, or by a version of
// autobuild without snapshots) is removed first, and its files copied
// again.
func ensureSubvolume(ops Ops, dir string) error {
	if ops.IsSubvolume(dir) {
		return nil
	}
	if _, err := os.Lstat(dir); err == nil {
		if err := os.RemoveAll(dir); err != nil {
			return fmt.Errorf("removing autobuild's copy %s to make it a subvolume: %w", dir, err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	return ops.Subvolume(dir)
}

// dropSubvolume removes path where it is a subvolume (autobuild's copy,
// or a worktree's snapshot, made by a run that had snapshots), so that it
// is made again as a plain folder, whose files can be hard links.
func dropSubvolume(ops Ops, path string) error {
	if ops.IsSubvolume == nil || !ops.IsSubvolume(path) {
		return nil
	}
	if err := gitx.RemoveAll(path); err != nil {
		return fmt.Errorf("removing the subvolume %s: %w", path, err)
	}
	return nil
}

// snapshot makes dst a snapshot of autobuild's copy of the folder at src,
// listed as n, and counts what it holds.
func (e *Env) snapshot(src, dst string, n *node) (Stats, error) {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return Stats{}, err
	}
	if err := e.ops.Snapshot(src, dst); err != nil {
		return Stats{}, err
	}
	st := count(n)
	st.Put = st.Files
	return st, nil
}

// count is the files (symbolic links included) and bytes of the listing n.
func count(n *node) Stats {
	var st Stats
	switch mode := modeOf(n); {
	case mode.IsDir():
		for _, k := range n.kids {
			st.add(count(k))
		}
	case mode.IsRegular():
		st.Files++
		st.Bytes += n.fi.Size()
	case mode&os.ModeSymlink != 0:
		st.Files++
	}
	return st
}

// stampSnapshotSource gives the folders of autobuild's copy of the entry
// rel, listed as n, a stamp that its snapshots carry, so that a reused
// worktree's snapshot is brought up to date as a planted folder is
// (refresh.go). A copy that the run's check changed in nothing keeps the
// stamp an earlier run gave it: rewriting 4,000 folders' times each run
// would leave the copy dirty, and the first snapshot of the run would
// wait ~0.1 s for btrfs to write them. Its snapshots from that earlier
// run are then up to date as far as their folders' times can tell (the
// copy is the same); every file in them is compared anyway.
func (e *Env) stampSnapshotSource(rel string, n *node, synced Stats) {
	dir := filepath.Join(e.cacheDir, filepath.FromSlash(rel))
	stamp := e.stamp
	if fi, err := os.Lstat(dir); err == nil && synced.Put == 0 && synced.Removed == 0 && isStamp(fi.ModTime()) {
		stamp = fi.ModTime()
	} else {
		stampAll(dir, n, stamp)
	}
	if e.snapStamps == nil {
		e.snapStamps = map[string]time.Time{}
	}
	e.snapStamps[rel] = stamp
}

// stampOf is the stamp the folders of the entry rel carry in a worktree.
func (e *Env) stampOf(rel string) time.Time {
	if t, ok := e.snapStamps[rel]; ok {
		return t
	}
	return e.stamp
}
