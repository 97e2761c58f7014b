package main

import (
	"encoding/json"
	"errors"
	"io"
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
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/state"
)

// These tests drive the real binary in a pseudo-terminal, as a user would:
// the TUI starts only on a terminal, reads keys from it and draws on it.

// term is a process running in a pty, with everything it printed.
type term struct {
	t    *testing.T
	cmd  *exec.Cmd
	pty  *os.File
	mu   sync.Mutex
	out  strings.Builder
	done chan struct{}
	err  error
	// read is closed once everything the process printed has been read.
	read chan struct{}
}

func startInPty(t *testing.T, dir string, args ...string) *term {
	t.Helper()
	return startInPtyReadingAfter(t, nil, &pty.Winsize{Rows: 30, Cols: 100}, dir, args...)
}

// startInPtyReadingAfter starts reading the terminal only once start is
// closed (nil: at once). Until then the terminal is frozen, as a terminal
// whose output is stopped (ctrl+s, a stuck ssh): writes to it block once
// its buffer is full.
func startInPtyReadingAfter(t *testing.T, start <-chan struct{}, size *pty.Winsize, dir string, args ...string) *term {
	t.Helper()
	return startPty(t, start, size, dir, nil, args...)
}

// startInPtyEnv is startInPty with extra environment variables.
func startInPtyEnv(t *testing.T, dir string, env []string, args ...string) *term {
	t.Helper()
	return startPty(t, nil, &pty.Winsize{Rows: 30, Cols: 100}, dir, env, args...)
}

// startPty starts autobuild in dir on a terminal of size, with env added
// to its environment, reading the terminal once start is closed (nil: at
// once).
func startPty(t *testing.T, start <-chan struct{}, size *pty.Winsize, dir string, env []string, args ...string) *term {
	t.Helper()
	cmd := command(dir, args...)
	cmd.Env = append(append(cmd.Env, "TERM=xterm-256color"), env...)
	f, err := pty.StartWithSize(cmd, size)
	require.NoError(t, err)
	tm := &term{t: t, cmd: cmd, pty: f, done: make(chan struct{}), read: make(chan struct{})}
	go func() {
		defer close(tm.read)
		if start != nil {
			<-start
		}
		buf := make([]byte, 32<<10)
		for {
			n, err := f.Read(buf)
			tm.mu.Lock()
			tm.out.Write(buf[:n])
			tm.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	go func() {
		tm.err = cmd.Wait()
		close(tm.done)
	}()
	t.Cleanup(func() {
		select {
		case <-tm.done:
		default:
			_ = cmd.Process.Kill()
			<-tm.done
		}
		f.Close()
		if t.Failed() {
			t.Logf("terminal output (escapes stripped):\n%s", tm.text())
		}
	})
	return tm
}

// text is the output with escape sequences removed. The renderer skips
// cells that did not change, so a word can lose a space: compare with
// squash.
func (tm *term) text() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return ansi.Strip(tm.out.String())
}

// raw is everything printed, escape sequences included.
func (tm *term) raw() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.out.String()
}

func squash(s string) string {
	return strings.Join(strings.Fields(s), "")
}

// waitText waits until the output holds want (spaces ignored) after the
// mark-th byte of text.
func (tm *term) waitText(want string, from int, timeout time.Duration) int {
	tm.t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		txt := tm.text()
		if from <= len(txt) {
			if i := strings.Index(squash(txt[from:]), squash(want)); i >= 0 {
				return len(txt)
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	tm.t.Fatalf("the terminal never showed %q", want)
	return 0
}

func (tm *term) send(keys string) {
	_, err := io.WriteString(tm.pty, keys)
	require.NoError(tm.t, err)
}

func (tm *term) exitCode(timeout time.Duration) int {
	tm.t.Helper()
	select {
	case <-tm.done:
	case <-time.After(timeout):
		tm.t.Fatal("autobuild did not exit")
	}
	// The pty reports its end once the process and its children are gone;
	// the output read so far is then complete.
	select {
	case <-tm.read:
	case <-time.After(5 * time.Second):
	}
	var ee *exec.ExitError
	if errors.As(tm.err, &ee) {
		return ee.ExitCode()
	}
	require.NoError(tm.t, tm.err)
	return 0
}

// The whole story of the README's terminal UI in one run: the demo halts, the halt screen
// shows the failure, `l` opens the failed phase's log, the user fixes the
// code in another terminal, `r` resumes in place, and the run completes.
func TestTUIHaltFixResume(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the demo")
	}
	dir := t.TempDir()
	tm := startInPty(t, dir, "demo", "--halt", "--dir", dir)

	mark := tm.waitText("AUTOBUILD HALTED", 0, 90*time.Second)
	// Attempt after attempt leaves Format unwritten: the test gate cannot
	// compile, a broken build.
	tm.waitText("Phase 2B failed after retry (typecheck_error)", 0, 5*time.Second)
	tm.waitText("r resume", 0, 5*time.Second)

	tm.send("l")
	mark = tm.waitText("failure report", mark, 10*time.Second)

	repo := filepath.Join(dir, "calc")
	fix, err := os.ReadFile(filepath.Join(dir, "fix", "format.go"))
	require.NoError(t, err)
	writeFile(t, filepath.Join(repo, "calc", "format.go"), string(fix))
	// Pressed before the fix is committed, r is refused and the halt
	// screen stays.
	tm.send("r")
	mark = tm.waitText("could not start the run", mark, 30*time.Second)
	git(t, repo, "add", "calc")
	git(t, repo, "commit", "-q", "-m", "fix: write Format")

	tm.send("r")
	mark = tm.waitText("AUTOBUILD COMPLETE", mark, 90*time.Second)
	// A complete run has nothing to resume: r says so, and runs nothing.
	tm.send("r")
	tm.waitText("nothing to resume", mark, 10*time.Second)
	tm.send("q")
	assert.Equal(t, 0, tm.exitCode(30*time.Second))

	log := git(t, repo, "log", "--format=%s")
	assert.Contains(t, log, "fix: write Format")
	assert.Contains(t, log, "feat(calc): command line")
	// After the UI is gone, the summary stays on the terminal.
	txt := tm.text()
	assert.Contains(t, squash(txt[strings.LastIndex(txt, "AUTOBUILD")-1:]), "AUTOBUILDCOMPLETE")
}

// Quitting mid-run asks first, then halts gracefully: exit 130, the run's
// state says interrupted, and --resume finishes it.
func TestTUIQuitMidRunAsksThenInterrupts(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the demo")
	}
	dir := t.TempDir()
	tm := startInPty(t, dir, "demo", "--dir", dir)
	mark := tm.waitText("Expression parser", 0, 60*time.Second)
	tm.waitText("running", 0, 30*time.Second)
	tm.send("q")
	mark = tm.waitText("y/n", mark, 10*time.Second)
	tm.send("y")
	assert.Equal(t, 130, tm.exitCode(60*time.Second))

	repo := filepath.Join(dir, "calc")
	run := loadRun(t, repo)
	assert.Equal(t, "interrupted", string(run.Status))
	res := autobuild(t, repo, "plan.md", "--resume", "--agent", "sim", "--scenario", filepath.Join(dir, "scenario.json"), "--no-tui")
	assert.Equal(t, 0, res.code, res.String())
}

// A frozen screen does not slow the run: with nobody reading the terminal,
// the UI blocks on its writes once the terminal's buffer is full (a large
// screen redrawn for a flood of output fills it at once), but the engine
// goes on, drops output lines for the stuck UI, and completes; the UI then
// catches up with the end. An engine that waited for the UI would never
// finish: its agents would block on their full output pipes.
func TestTUIFrozenTerminalDoesNotSlowTheRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a plan")
	}
	repo := newRepo(t, fivePhases)
	ag := workingAgent(t, filepath.Join(t.TempDir(), "calls"), `seq 1 20000 | sed 's/^/a talkative agent prints line /'`)
	start := make(chan struct{})
	tm := startInPtyReadingAfter(t, start, &pty.Winsize{Rows: 80, Cols: 250}, repo, "plan.md", "--agent", ag, "--commit=auto")
	waitFor(t, "the run to complete while nobody reads the terminal", 90*time.Second, func() bool {
		run, err := state.Open(repo).LoadRun()
		return err == nil && run.Status == state.RunComplete
	})
	require.NotContains(t, tm.text(), "AUTOBUILD COMPLETE", "the terminal was not read")
	close(start)
	tm.waitText("AUTOBUILD COMPLETE", 0, 60*time.Second)
	tm.send("q")
	assert.Equal(t, 0, tm.exitCode(30*time.Second))
}

// With stdout a terminal but stdin not one (/dev/null, nohup), no key could
// reach the UI and nothing could quit it: the run prints plain lines and
// exits on its own; watch refuses.
func TestTUIWithoutAKeyboardPrintsPlainly(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a plan")
	}
	repo := newRepo(t, fivePhases)
	ag := workingAgent(t, filepath.Join(t.TempDir(), "calls"), "")
	ptmx, tty, err := pty.Open()
	require.NoError(t, err)
	defer ptmx.Close()
	var out strings.Builder
	read := make(chan struct{})
	go func() {
		defer close(read)
		_, _ = io.Copy(&out, ptmx)
	}()
	run := func(args ...string) error {
		cmd := command(repo, args...)
		cmd.Env = append(cmd.Env, "TERM=xterm-256color")
		cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, tty, tty // stdin: /dev/null
		done := make(chan error, 1)
		require.NoError(t, cmd.Start())
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			return err
		case <-time.After(60 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatalf("autobuild %s did not exit on its own", strings.Join(args, " "))
			return nil
		}
	}
	require.NoError(t, run("plan.md", "--agent", ag, "--commit=auto"))
	var ee *exec.ExitError
	require.ErrorAs(t, run("watch"), &ee)
	assert.Equal(t, 2, ee.ExitCode())
	tty.Close()
	select {
	case <-read:
	case <-time.After(5 * time.Second):
	}
	assert.NotContains(t, out.String(), "\x1b[?1049h", "no alternate screen")
	assert.Contains(t, out.String(), "PHASE 2A STARTED")
	assert.Contains(t, out.String(), "AUTOBUILD COMPLETE")
	assert.Contains(t, out.String(), "watch needs a terminal")
}

// `autobuild watch` follows a run started with --no-tui elsewhere: started
// before the run exists, it waits; it shows the halt and, on r, how to
// resume; it follows the resume made in another terminal to completion;
// quitting it leaves the run alone.
func TestTUIWatchFollowsHeadlessRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the demo")
	}
	dir := t.TempDir()
	repo := filepath.Join(dir, "calc")
	require.NoError(t, os.MkdirAll(repo, 0o755))
	tm := startInPty(t, dir, "watch", repo)
	mark := tm.waitText("Waiting for a run in "+repo, 0, 20*time.Second)

	run := command(dir, "demo", "--halt", "--no-tui", "--dir", dir)
	require.NoError(t, run.Start())
	mark = tm.waitText("Bootstrap", mark, 30*time.Second)
	mark = tm.waitText("AUTOBUILD HALTED", mark, 90*time.Second)
	var ee *exec.ExitError
	require.ErrorAs(t, run.Wait(), &ee, "the halted demo exits non-zero")

	tm.send("r")
	mark = tm.waitText("Read-only. To resume, run: cd calc && "+binary+" plan.md --resume", mark, 10*time.Second)

	fix, err := os.ReadFile(filepath.Join(dir, "fix", "format.go"))
	require.NoError(t, err)
	writeFile(t, filepath.Join(repo, "calc", "format.go"), string(fix))
	git(t, repo, "add", "calc")
	git(t, repo, "commit", "-q", "-m", "fix: write Format")
	// As the hint says: no --agent, no --scenario; run.json has both.
	res := autobuild(t, repo, "plan.md", "--resume", "--no-tui")
	require.Equal(t, 0, res.code, res.String())

	mark = tm.waitText("AUTOBUILD COMPLETE", mark, 30*time.Second)
	tm.send("r")
	tm.waitText("nothing to resume", mark, 10*time.Second)
	tm.send("q")
	assert.Equal(t, 0, tm.exitCode(10*time.Second))
}

// On a terminal, --no-tui and --json keep the plain printers: no alternate
// screen, plain lines or one JSON object per line.
func TestTUINoTUIAndJSONOnATerminalPrintPlainly(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a plan")
	}
	repo := newRepo(t, fivePhases)
	ag := workingAgent(t, filepath.Join(t.TempDir(), "calls"), "")
	const altScreen = "\x1b[?1049h"

	tm := startInPty(t, repo, "plan.md", "--agent", ag, "--commit=auto", "--no-tui")
	assert.Equal(t, 0, tm.exitCode(60*time.Second))
	out := tm.raw()
	assert.NotContains(t, out, altScreen)
	assert.Contains(t, out, "PHASE 2A STARTED")
	assert.Contains(t, out, "AUTOBUILD COMPLETE")

	tm = startInPty(t, repo, "plan.md", "--agent", ag, "--commit=auto", "--fresh", "--json")
	assert.Equal(t, 0, tm.exitCode(60*time.Second))
	out = tm.raw()
	assert.NotContains(t, out, altScreen)
	lines := 0
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			assert.True(t, json.Valid([]byte(l)), "not JSON: %q", l)
			lines++
		}
	}
	assert.Greater(t, lines, 10)
}

// A SIGTERM from outside (a service manager, a CI timeout) halts a TUI run
// gracefully like Ctrl-C: exit 130 and an interrupted run to resume.
func TestTUISigtermInterrupts(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the demo")
	}
	dir := t.TempDir()
	tm := startInPty(t, dir, "demo", "--dir", dir)
	tm.waitText("Core arithmetic", 0, 60*time.Second)
	require.NoError(t, tm.cmd.Process.Signal(syscall.SIGTERM))
	assert.Equal(t, 130, tm.exitCode(60*time.Second))
	assert.Equal(t, "interrupted", string(loadRun(t, filepath.Join(dir, "calc")).Status))
}

// A SIGTERM while the UI shows a halt (no run under way) ends autobuild: the
// summary stays on the terminal and the exit code is the halt's.
func TestTUISigtermOnTheHaltScreenQuits(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a plan")
	}
	repo := newRepo(t, fivePhases)
	tm := startInPty(t, repo, "plan.md", "--agent", "no-such-agent-cli --all", "--commit=auto")
	tm.waitText("AUTOBUILD HALTED", 0, 60*time.Second)
	tm.waitText("r resume", 0, 10*time.Second)
	require.NoError(t, tm.cmd.Process.Signal(syscall.SIGTERM))
	assert.Equal(t, 1, tm.exitCode(30*time.Second))
	txt := tm.text()
	assert.Contains(t, squash(txt[strings.LastIndex(txt, "AUTOBUILD")-1:]), "AUTOBUILDHALTED", "the summary stays")
}
