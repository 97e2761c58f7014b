package engine

import (
	"os"
	"syscall"
)

// crashAt kills this process with SIGKILL at a named point when the
// environment variable AUTOBUILD_CRASH_AT is "<point>:<phase id>". The
// kill -9 tests use it to stop inside windows too narrow to hit by timing
// (a commit landed, its state not yet written); it costs one lookup.
func crashAt(point, phaseID string) {
	if os.Getenv("AUTOBUILD_CRASH_AT") == point+":"+phaseID {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal is on its way
	}
}
