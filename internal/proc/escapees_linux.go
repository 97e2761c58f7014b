package proc

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// markedPIDs lists the live processes, other than this one, whose
// environment holds the variable marker. Processes of other users, whose
// environments cannot be read, are not ours anyway.
func markedPIDs(marker string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	want := []byte(marker + "=")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || len(env) == 0 {
			continue // gone, another user's, or a zombie
		}
		if bytes.HasPrefix(env, want) || bytes.Contains(env, append([]byte{0}, want...)) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// killPID sends SIGKILL to pid and reports whether it was delivered.
func killPID(pid int) bool { return syscall.Kill(pid, syscall.SIGKILL) == nil }
