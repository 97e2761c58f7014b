package main

import (
	"errors"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestScripts runs the command-line cases in testdata/script/*.txtar
// against the built binary: short cases that read better as a script (the
// command, its exit code, its exact output) than as Go.
//
// Besides testscript's own commands, a script has:
//
//	exits CODE [ARGS...]   run autobuild with ARGS and require exit CODE
//	                       (its output is then checked with stdout/stderr/cmp)
//
// and $AUTOBUILD is the binary's path, for a case that needs a shell
// around it.
func TestScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			// No terminal, no colour, and no agent CLIs from the machine.
			env.Setenv("NO_COLOR", "1")
			env.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
			env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			env.Setenv("AUTOBUILD", binary) // for a script that runs it through sh
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits": exits,
		},
	})
}

// exits runs autobuild and requires the exit code it is given.
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: exits CODE [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	if err := ts.Exec(binary, args[1:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("autobuild %s: %v", strings.Join(args[1:], " "), err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("autobuild %s: exit %d, want %d", strings.Join(args[1:], " "), got, want)
	}
}
