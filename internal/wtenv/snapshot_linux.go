package wtenv

import (
	"fmt"
	"os"
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The btrfs ioctls, from linux/btrfs.h: _IOW(0x94, nr, 4096-byte args).
const (
	btrfsIocSubvolCreate  = 0x5000940e // BTRFS_IOC_SUBVOL_CREATE, nr 14
	btrfsIocSnapCreateV2  = 0x50009417 // BTRFS_IOC_SNAP_CREATE_V2, nr 23
	btrfsPathNameMax      = 4087
	btrfsSubvolNameMax    = 4039
	btrfsFirstFreeObjecID = 256 // the inode number of a subvolume's root
)

// btrfsVolArgs is struct btrfs_ioctl_vol_args.
type btrfsVolArgs struct {
	fd   int64
	name [btrfsPathNameMax + 1]byte
}

// btrfsVolArgsV2 is struct btrfs_ioctl_vol_args_v2 (its unions at their
// largest members).
type btrfsVolArgsV2 struct {
	fd      int64
	transid uint64
	flags   uint64
	unused  [4]uint64
	name    [btrfsSubvolNameMax + 1]byte
}

// makeSubvolume makes path, which must not exist, an empty btrfs subvolume.
func makeSubvolume(path string) error {
	parent, name := filepath.Split(path)
	if len(name) > btrfsPathNameMax {
		return fmt.Errorf("subvolume name too long: %s", name)
	}
	dir, err := unix.Open(filepath.Clean(parent), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return &os.PathError{Op: "open", Path: parent, Err: err}
	}
	defer unix.Close(dir)
	var args btrfsVolArgs
	copy(args.name[:], name)
	if err := ioctl(dir, btrfsIocSubvolCreate, unsafe.Pointer(&args)); err != nil {
		return &os.PathError{Op: "making a btrfs subvolume", Path: path, Err: err}
	}
	return nil
}

// snapshotSubvolume makes dst, which must not exist, a writable snapshot
// of the subvolume src.
func snapshotSubvolume(src, dst string) error {
	parent, name := filepath.Split(dst)
	if len(name) > btrfsSubvolNameMax {
		return fmt.Errorf("snapshot name too long: %s", name)
	}
	from, err := unix.Open(src, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return &os.PathError{Op: "open", Path: src, Err: err}
	}
	defer unix.Close(from)
	dir, err := unix.Open(filepath.Clean(parent), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return &os.PathError{Op: "open", Path: parent, Err: err}
	}
	defer unix.Close(dir)
	args := btrfsVolArgsV2{fd: int64(from)}
	copy(args.name[:], name)
	if err := ioctl(dir, btrfsIocSnapCreateV2, unsafe.Pointer(&args)); err != nil {
		return &os.PathError{Op: "snapshotting " + src + " as", Path: dst, Err: err}
	}
	return nil
}

func ioctl(fd int, req uintptr, arg unsafe.Pointer) error {
	if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), req, uintptr(arg)); errno != 0 {
		return errno
	}
	return nil
}

// isSubvolume reports whether path is the root of a btrfs subvolume.
func isSubvolume(path string) bool {
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR || st.Ino != btrfsFirstFreeObjecID {
		return false
	}
	var fs unix.Statfs_t
	return unix.Statfs(path, &fs) == nil && fs.Type == unix.BTRFS_SUPER_MAGIC
}
