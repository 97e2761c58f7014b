// Package exitcode holds autobuild's process exit codes (docs/exit-codes.md)
// and the error that carries one: a leaf package, so that commands which only
// need a code (status, watch, report) do not import the engine.
package exitcode

import (
	"errors"
	"fmt"
)

// The exit codes.
const (
	Complete    = 0   // every phase complete (or: the command did its job)
	Halted      = 1   // a phase failure halted the run
	Usage       = 2   // bad usage or an invalid plan
	Refused     = 3   // refused to start: lock, dirty tree, unreadable state, agent setup
	Interrupted = 130 // Ctrl-C, SIGTERM or SIGHUP: a graceful halt
)

// Error is an error that carries the process exit code it maps to.
type Error struct {
	Code int
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Of returns the exit code that err maps to: the code of an *Error in its
// chain, else Halted (1).
func Of(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Halted
}

// Refusedf builds an exit-3 error: autobuild would not start.
func Refusedf(format string, args ...any) error {
	return &Error{Code: Refused, Err: fmt.Errorf(format, args...)}
}

// Usagef builds an exit-2 error.
func Usagef(format string, args ...any) error {
	return &Error{Code: Usage, Err: fmt.Errorf(format, args...)}
}
