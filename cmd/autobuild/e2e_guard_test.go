package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/state"
)

// Attack 9 (issue 25): `autobuild … --no-tui | head -3`. The reader goes
// away after three lines; the next line autobuild printed killed it by
// SIGPIPE, with no graceful halt. Decided: a closed standard output is a
// graceful halt, as a closed terminal is: the running phase finishes or
// is stopped as by Ctrl-C, nothing new starts, run.json says interrupted,
// exit 130, and --resume goes on.
func TestAttackClosedStdoutIsAGracefulHalt(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, twoSequential)
	agent := agentScript(t, `sleep 1; echo x > "$AUTOBUILD_PHASE_ID.txt"`)
	for _, args := range [][]string{{"--no-tui"}, {"--json"}} {
		cmd := command(repo, append([]string{"plan.md", "--commit=auto", "--agent", agent, "--fresh"}, args...)...)
		r, w, err := os.Pipe()
		require.NoError(t, err)
		cmd.Stdout = w
		stderr, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
		require.NoError(t, err)
		cmd.Stderr = stderr
		require.NoError(t, cmd.Start())
		w.Close()
		sc := bufio.NewScanner(r)
		for range 3 {
			require.True(t, sc.Scan(), "%v: three lines before the reader goes", args)
		}
		r.Close() // head -3 exits
		err = cmd.Wait()
		var ee *exec.ExitError
		require.True(t, errors.As(err, &ee), "%v: %v", args, err)
		ws := ee.Sys().(syscall.WaitStatus)
		require.False(t, ws.Signaled(), "%v: killed by %v", args, ws.Signal())
		require.Equal(t, 130, ws.ExitStatus(), "%v", args)
		run, err := state.Open(repo).LoadRun()
		require.NoError(t, err)
		require.Equal(t, state.RunInterrupted, run.Status, "%v", args)
		_, err = os.Stat(filepath.Join(repo, "2.txt"))
		require.True(t, os.IsNotExist(err), "%v: phase 2 did not start after the halt", args)
	}
}
