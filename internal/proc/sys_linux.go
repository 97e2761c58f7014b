package proc

import (
	"os"
	"syscall"
)

// sysProcAttr puts the child in process group pgid (a new group of its own
// when pgid is 0) and asks the kernel to kill it if autobuild dies (kill -9
// included); the group's guard takes care of the child's own children.
func sysProcAttr(pgid int) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pgid: pgid, Pdeathsig: syscall.SIGKILL}
}

// selfExe is the path that starts this very binary again: /proc/self/exe,
// which still works when the file was replaced or deleted since (a `go
// install` during a run).
func selfExe() string {
	const self = "/proc/self/exe"
	if _, err := os.Stat(self); err != nil {
		return ""
	}
	return self
}
