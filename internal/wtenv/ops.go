package wtenv

import (
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// Mode is how the files reach a worktree.
type Mode string

const (
	// Clone makes copy-on-write clones (FICLONE: btrfs, xfs, bcachefs):
	// instant, no disk used until a side changes, and an edit on either
	// side never reaches the other.
	Clone Mode = "copy-on-write clones"
	// Link hard-links the files of dependency folders (node_modules,
	// .venv, ...) to autobuild's own copy of them in .autobuild/, never to
	// your files; every other file is copied. Where the file system
	// clones too, that copy is made of clones and the other files are
	// cloned (Env.cacheClone).
	Link Mode = "hard links to autobuild's copy"
	// Copy copies every file.
	Copy Mode = "plain copies"
	// Snapshot makes each folder a copy-on-write snapshot of autobuild's
	// copy of it, a btrfs subvolume (snapshot.go); files are cloned.
	Snapshot Mode = "copy-on-write snapshots of autobuild's copy"
)

// Ops are the file operations that depend on the file system; tests
// replace them to take each path.
type Ops struct {
	// Clone makes dst a copy-on-write clone of the regular file src.
	Clone func(src, dst string, mode os.FileMode) error
	// Link makes dst a hard link to src.
	Link func(src, dst string) error
	// Subvolume makes the folder path a btrfs subvolume, Snapshot makes
	// dst a snapshot of the subvolume src, IsSubvolume tells one (nil:
	// no snapshots).
	Subvolume   func(path string) error
	Snapshot    func(src, dst string) error
	IsSubvolume func(path string) bool
}

// SystemOps are the real operations.
func SystemOps() Ops {
	return Ops{Clone: cloneFile, Link: os.Link, Subvolume: makeSubvolume, Snapshot: snapshotSubvolume, IsSubvolume: isSubvolume}
}

// cloneOrCopy clones src to dst with clone, or copies it when the clone
// fails (another file system, a file the clone refuses).
func cloneOrCopy(clone func(src, dst string, mode os.FileMode) error, src, dst string, mode os.FileMode) error {
	if err := clone(src, dst, mode); err == nil {
		return nil
	}
	return copyFile(src, dst, mode)
}

// copyFile copies the regular file src to a new file dst.
func copyFile(src, dst string, mode os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode.Perm())
	if err != nil {
		return err
	}
	_, cerr := io.Copy(out, in)
	if err := out.Close(); cerr == nil {
		cerr = err
	}
	if cerr != nil {
		_ = os.Remove(dst)
		return fmt.Errorf("copying %s: %w", src, cerr)
	}
	return nil
}

// probe picks the mode for files from srcDir into dstDir. Where the file
// system both clones and hard-links: hard links (a link() per file is far
// cheaper than a clone's open, ioctl and close), to autobuild's copy made
// of clones (cloned is true: the copy takes no data blocks, and the files
// that are not linked are cloned too). A clone alone: clones. Else hard
// links when link works between linkDir (autobuild's copy) and dstDir,
// else copies. sample is a regular file under srcDir to try the clone
// with ("" when there is none).
func probe(ops Ops, sample, linkDir, dstDir string) (mode Mode, why string, cloned bool) {
	if sample != "" {
		try := dstDir + "/.autobuild-probe-clone"
		_ = os.Remove(try)
		err := ops.Clone(sample, try, 0o600)
		_ = os.Remove(try)
		if err == nil {
			if linkWorks(ops, linkDir, dstDir) {
				return Link, "", true
			}
			return Clone, "", false
		}
		why := "this file system cannot clone"
		if errors.Is(err, unix.EXDEV) {
			why = "your checkout and .autobuild/ are on different file systems"
		}
		if linkWorks(ops, linkDir, dstDir) {
			return Link, why, false
		}
		return Copy, why + ", nor hard-link", false
	}
	return Copy, "nothing to clone", false
}

// linkWorks tries one hard link from linkDir into dstDir.
func linkWorks(ops Ops, linkDir, dstDir string) bool {
	if err := os.MkdirAll(linkDir, 0o755); err != nil {
		return false
	}
	src, dst := linkDir+"/.autobuild-probe-link", dstDir+"/.autobuild-probe-link"
	_ = os.Remove(dst)
	if err := os.WriteFile(src, nil, 0o600); err != nil {
		return false
	}
	defer os.Remove(src)
	err := ops.Link(src, dst)
	_ = os.Remove(dst)
	return err == nil
}
