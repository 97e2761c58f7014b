package gitx

import (
	"fmt"
	"syscall"
)

// lowSpace is the free space under which a failed write is put down to a
// full disk: git's own messages ("unable to write file") do not say so.
const lowSpace = 16 << 20

// withDiskNote adds to err, when the disk holding dir is (nearly) full,
// how much space is left and syscall.ENOSPC, so the cause reaches the user
// and callers can tell it with errors.Is.
func withDiskNote(err error, dir string) error {
	var st syscall.Statfs_t
	if err == nil || syscall.Statfs(dir, &st) != nil {
		return err
	}
	free := uint64(st.Bavail) * uint64(st.Bsize)
	if free >= lowSpace {
		return err
	}
	return fmt.Errorf("%w (the disk holding %s has only %d KiB free: %w)", err, dir, free>>10, syscall.ENOSPC)
}
