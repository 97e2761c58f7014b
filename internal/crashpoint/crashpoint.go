// Package crashpoint kills the process at a named point for the kill -9
// tests (AUTOBUILD_CRASH_AT).
package crashpoint

import (
	"os"
	"syscall"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// At kills this process with SIGKILL at a named point when the
// environment variable AUTOBUILD_CRASH_AT is "<point>:<key>", the key a
// phase id or a step's number. The
// kill -9 tests use it to stop inside windows too narrow to hit by timing
// (a commit landed, its state not yet written); it costs one lookup.
func At[K phaseid.ID | string](point string, key K) {
	if os.Getenv("AUTOBUILD_CRASH_AT") == point+":"+string(key) {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal is on its way
	}
}
