//go:build unix

package notify

import (
	"os/exec"
	"syscall"
)

// setGroup runs the command in its own process group, and a timeout ends
// the whole group: a script's children do not outlive it.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
