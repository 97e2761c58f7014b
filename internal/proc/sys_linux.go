package proc

import "syscall"

// sysProcAttr puts the child in its own process group and asks the kernel to
// kill it if autobuild dies (kill -9 included).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
