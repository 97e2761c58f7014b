package engine

import "github.com/autobuild-sh/autobuild/internal/exitcode"

// Exit codes of docs/exit-codes.md; they live in package exitcode, these
// names stay for the engine's callers.
const (
	ExitComplete    = exitcode.Complete
	ExitHalted      = exitcode.Halted
	ExitUsage       = exitcode.Usage
	ExitRefused     = exitcode.Refused
	ExitInterrupted = exitcode.Interrupted
)

// Error is an error that carries the process exit code it maps to.
type Error = exitcode.Error

// ExitCode returns the exit code that err maps to: the code of an *Error in
// its chain, else 1.
func ExitCode(err error) int { return exitcode.Of(err) }

// refused builds an exit-3 error: autobuild would not start.
func refused(format string, args ...any) error { return exitcode.Refusedf(format, args...) }

// usage builds an exit-2 error.
func usage(format string, args ...any) error { return exitcode.Usagef(format, args...) }
