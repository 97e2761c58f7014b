package wtenv

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// cloneFile clones src to a new file dst with the FICLONE ioctl; dst is
// removed again when the file system cannot clone. Plain system calls,
// without os.File's bookkeeping: it runs once per file of a node_modules.
func cloneFile(src, dst string, mode os.FileMode) error {
	in, err := unix.Open(src, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return &os.PathError{Op: "open", Path: src, Err: err}
	}
	defer unix.Close(in)
	out, err := unix.Open(dst, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_CLOEXEC, uint32(mode.Perm()))
	if err != nil {
		return &os.PathError{Op: "open", Path: dst, Err: err}
	}
	cerr := unix.IoctlFileClone(out, in)
	if err := unix.Close(out); cerr == nil {
		cerr = err
	}
	if cerr != nil {
		_ = os.Remove(dst)
		return fmt.Errorf("cloning %s: %w", src, cerr)
	}
	return nil
}
