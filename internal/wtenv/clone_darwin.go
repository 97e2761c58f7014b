package wtenv

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// cloneFile clones src to a new file dst with clonefile(2) (APFS): a
// copy-on-write clone, as FICLONE makes on Linux; it fails where the file
// system cannot clone, and dst is then not made.
func cloneFile(src, dst string, mode os.FileMode) error {
	if err := unix.Clonefile(src, dst, unix.CLONE_NOFOLLOW); err != nil {
		return fmt.Errorf("cloning %s: %w", src, &os.PathError{Op: "clonefile", Path: dst, Err: err})
	}
	return os.Chmod(dst, mode.Perm())
}
