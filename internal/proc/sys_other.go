//go:build unix && !linux

package proc

import "syscall"

// sysProcAttr puts the child in its own process group. Other systems have no
// parent-death signal; the engine's reconciliation on resume covers that case.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
