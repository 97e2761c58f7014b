// Package lazyre compiles a regular expression on its first use instead of in
// its package's initialisation. Go runs the init of every package linked into
// the binary at every start, `autobuild --version` included, so a pattern
// compiled at package level costs every command, whether it matches anything
// or not (see bench/README.md, "Start time").
package lazyre

import (
	"regexp"
	"sync"
)

// New returns a function that compiles expr on its first call, as
// regexp.MustCompile does (it panics on a bad expression), and returns the
// same *regexp.Regexp on every call. It is safe for concurrent use.
//
// Call it at package level with a string literal: TestPatternsCompile finds
// every such call in the module and compiles its pattern, so a bad one fails
// the tests instead of the first run that needs it.
func New(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
