package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"
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

// Attack 10 (issue 25): the terminal closes (the tmux server killed, an ssh
// session dropped) while the UI shows a running phase, or its summary
// after the run: the kernel hangs up the terminal (SIGHUP). The run halts
// gracefully and the process ends; it stayed for good, on every screen.
func TestAttackTUIExitsAfterItsTerminalHangsUp(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a plan in a pty")
	}
	t.Parallel()
	for name, c := range map[string]struct{ agent, screen, status string }{
		"running": {`sleep 30; echo x > "$AUTOBUILD_PHASE_ID.txt"`, "running", "interrupted"},
		"summary": {`echo x > "$AUTOBUILD_PHASE_ID.txt"`, "AUTOBUILD COMPLETE", "complete"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			repo := newRepo(t, twoSequential)
			hp := startHangupPty(t, repo, "plan.md", "--agent", agentScript(t, c.agent), "--commit=auto")
			hp.waitFor(t, c.screen)
			hp.hangUp()
			select {
			case <-hp.done:
			case <-time.After(30 * time.Second):
				t.Fatal("autobuild did not exit after its terminal hung up")
			}
			run, err := state.Open(repo).LoadRun()
			require.NoError(t, err)
			require.Equal(t, c.status, string(run.Status))
		})
	}
}

// hangupPty runs autobuild on a pty whose master the test can really
// close: the reader waits for output with select(2) and reads only what is
// there, so no read holds the master open (a blocked read on it would delay
// the close, and the hangup, for as long as nothing is printed: on a
// summary screen, for good).
type hangupPty struct {
	ptmx *os.File
	fd   int
	mu   sync.Mutex
	out  strings.Builder
	stop chan struct{}
	read chan struct{}
	done chan struct{}
}

func startHangupPty(t *testing.T, dir string, args ...string) *hangupPty {
	t.Helper()
	ptmx, tty, err := pty.Open()
	require.NoError(t, err)
	require.NoError(t, pty.Setsize(ptmx, &pty.Winsize{Rows: 30, Cols: 100}))
	cmd := command(dir, args...)
	cmd.Env = append(cmd.Env, "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	require.NoError(t, cmd.Start())
	tty.Close()
	hp := &hangupPty{ptmx: ptmx, fd: int(ptmx.Fd()), stop: make(chan struct{}), read: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(hp.read)
		buf := make([]byte, 32<<10)
		for {
			select {
			case <-hp.stop:
				return
			default:
			}
			var set syscall.FdSet
			set.Bits[hp.fd/64] |= 1 << (uint(hp.fd) % 64)
			tv := syscall.Timeval{Usec: 50_000}
			if n, err := syscall.Select(hp.fd+1, &set, nil, nil, &tv); err != nil || n == 0 {
				continue
			}
			n, err := syscall.Read(hp.fd, buf)
			if n > 0 {
				hp.mu.Lock()
				hp.out.Write(buf[:n])
				hp.mu.Unlock()
			}
			if err != nil || n == 0 {
				return
			}
		}
	}()
	go func() {
		_ = cmd.Wait()
		close(hp.done)
	}()
	t.Cleanup(func() {
		select {
		case <-hp.done:
		default:
			_ = cmd.Process.Kill()
			<-hp.done
		}
		hp.hangUp()
		if t.Failed() {
			hp.mu.Lock()
			t.Logf("terminal output:\n%s", ansi.Strip(hp.out.String()))
			hp.mu.Unlock()
		}
	})
	return hp
}

func (hp *hangupPty) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		hp.mu.Lock()
		txt := ansi.Strip(hp.out.String())
		hp.mu.Unlock()
		if strings.Contains(squash(txt), squash(want)) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the terminal never showed %q", want)
}

// hangUp closes the master, once no read is under way: the terminal is
// gone, and the kernel sends SIGHUP to its session's leader.
func (hp *hangupPty) hangUp() {
	select {
	case <-hp.stop:
		return
	default:
	}
	close(hp.stop)
	<-hp.read
	hp.ptmx.Close()
}
