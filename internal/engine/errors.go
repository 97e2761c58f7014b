package engine

import (
	"errors"
	"fmt"
)

// Exit codes of docs/exit-codes.md.
const (
	ExitComplete    = 0
	ExitHalted      = 1
	ExitUsage       = 2
	ExitRefused     = 3
	ExitInterrupted = 130
)

// Error is an engine error that carries the process exit code it maps to.
type Error struct {
	Code int
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// ExitCode returns the exit code that err maps to: the code of an *Error in
// its chain, else 1.
func ExitCode(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return 1
}

// refused builds an exit-3 error: autobuild would not start.
func refused(format string, args ...any) error {
	return &Error{Code: ExitRefused, Err: fmt.Errorf(format, args...)}
}

// usage builds an exit-2 error.
func usage(format string, args ...any) error {
	return &Error{Code: ExitUsage, Err: fmt.Errorf(format, args...)}
}
