//go:build unix && !linux

package proc

import (
	"os"
	"syscall"
)

// sysProcAttr puts the child in process group pgid (a new group of its own
// when pgid is 0). Other systems have no parent-death signal; the group's
// guard kills the child when autobuild dies.
func sysProcAttr(pgid int) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pgid: pgid}
}

// selfExe is the path of this very binary, "" when it cannot be found.
func selfExe() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return exe
}
