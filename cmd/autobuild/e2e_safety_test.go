package main

import (
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/gittest"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// hostileBytes are what a plan or an agent could use to drive the terminal
// that shows autobuild's output: OSC 52 (clipboard write), OSC 0 (window
// title), CSI 2J (clear screen), a carriage return, NUL, invalid UTF-8.
var hostileBytes = []string{"\x1b]52;", "\x1b]0;", "\x1b[2J", "\r", "\x00", "\xff"}

func requireClean(t *testing.T, what, s string) {
	t.Helper()
	for _, h := range hostileBytes {
		require.NotContains(t, s, h, "%s carries %q:\n%q", what, h, s)
	}
}

// Nothing an agent prints reaches the terminal, the execution log or the
// commit subject unescaped: its commit_message with OSC 52 and a screen
// clear, and output lines with OSC 0, NUL, CR and invalid UTF-8 under -v.
func TestAgentBytesNeverReachTheTerminalOrCommitRaw(t *testing.T) {
	t.Parallel()
	plan := "# T\x1b]0;title\x07itle\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n\n## Phase 1: One\n\n## Quality Gates\n\n- test: `true`\n"
	repo := newRepo(t, plan)
	agent := agentScript(t, `echo hi > f.txt
printf 'out \033]0;pwned\007 \000 nul \377 bad\rover\n'
printf '{"status":"complete","commit_message":"feat: ok\\u001b]52;c;ZWNobyBwd25lZA==\\u0007 \\u001b[2Jdone"}\n'
`)
	res := autobuild(t, repo, "plan.md", "--commit=auto", "--no-tui", "-v", "--agent", agent)
	require.Equal(t, 0, res.code, res.String())
	requireClean(t, "stdout", res.stdout)
	requireClean(t, "stderr", res.stderr)
	subject := git(t, repo, "log", "-1", "--format=%B")
	requireClean(t, "the commit message", subject)
	require.True(t, strings.HasPrefix(subject, "feat: ok"), subject)
	log, err := os.ReadFile(filepath.Join(repo, ".autobuild", "logs", "execution.log"))
	require.NoError(t, err)
	requireClean(t, "execution.log", string(log))
	st := autobuild(t, repo, "status")
	requireClean(t, "status", st.stdout)
	require.Contains(t, st.stdout, "feat: ok")
}

const safetyPlan = "# Safety\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n\n## Phase 1: One\n\n## Quality Gates\n\n- test: `true`\n"

func readFileT(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

const twoSequential = "# Two\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n| 2 | 1 |\n\n## Phase 1: First\n\n## Phase 2: Second\n\n## Quality Gates\n\n- test: `true`\n"

// A daemon an agent starts with setsid (its own session and process group)
// dies with its phase: it does not outlive a complete run.
func TestAgentsSetsidDaemonDiesWithItsPhase(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("needs /proc")
	}
	repo := newRepo(t, safetyPlan)
	pidFile := filepath.Join(t.TempDir(), "daemon")
	agent := agentScript(t, "echo hi > f.txt\nsetsid sh -c 'sleep 300 & echo $! > "+pidFile+"; wait' >/dev/null 2>&1 &\n"+
		"while [ ! -s "+pidFile+" ]; do sleep 0.01; done\n")
	res := autobuild(t, repo, "plan.md", "--commit=auto", "--no-tui", "--agent", agent)
	require.Equal(t, 0, res.code, res.String())
	pid, err := strconv.Atoi(strings.TrimSpace(readFileT(t, pidFile)))
	require.NoError(t, err)
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err == nil {
		require.Contains(t, string(stat), ") Z", "the daemon %d outlived its phase", pid)
	}
}

// A SIGHUP (the terminal closed, an ssh session dropped) halts gracefully
// like Ctrl-C: the state says interrupted, not running.
func TestSIGHUPHaltsGracefully(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, safetyPlan)
	started := filepath.Join(t.TempDir(), "started")
	agent := agentScript(t, "touch "+started+"\nsleep 300 &\nwait\n")
	cmd := command(repo, "plan.md", "--no-tui", "--commit=auto", "--agent", agent)
	require.NoError(t, cmd.Start())
	waitFor(t, "the agent to start", 20*time.Second, func() bool {
		_, err := os.Stat(started)
		return err == nil
	})
	require.NoError(t, cmd.Process.Signal(syscall.SIGHUP))
	require.Equal(t, 130, exitCode(cmd.Wait()))
	require.Equal(t, state.RunInterrupted, loadRun(t, repo).Status)
}

// tinyDisk mounts a tmpfs of size at a new directory and returns it; it
// skips the test where mounting is not allowed (not root, no tmpfs).
func tinyDisk(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if os.Getuid() != 0 {
		t.Skip("mounting a small disk needs root")
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", dir).Run() })
	return dir
}

// A worktree that cannot be created for lack of disk space is named as
// such, with the space left, not as a retryable agent_error.
func TestOutOfSpaceWorktreeNamesTheCause(t *testing.T) {
	t.Parallel()
	// Room for big.bin's object and its checkout (1 MB), not for a second
	// checkout of it in the phase's worktree.
	disk := tinyDisk(t, "1400k")
	repo := filepath.Join(disk, "repo")
	big := make([]byte, 500_000)
	_, _ = rand.Read(big) // incompressible: the objects take their full size
	gittest.New(t, gittest.At(repo), gittest.WithIdentity("e2e", "e2e@autobuild.invalid"),
		gittest.File("plan.md", safetyPlan), gittest.File("big.bin", string(big)))
	res := autobuild(t, repo, "plan.md", "--commit=auto", "--no-tui", "--agent", "true")
	require.Equal(t, 1, res.code, res.String())
	ps := loadPhase(t, repo, "1")
	require.NotNil(t, ps.Error, res.String())
	require.Equal(t, "disk_full", string(ps.Error.Type), res.String())
	require.Contains(t, ps.Error.Message, "KiB free")
	require.Len(t, ps.Attempts, 1, "not retried")
	require.NoDirExists(t, filepath.Join(repo, ".autobuild", "worktrees", "phase-1"), "the half-written worktree is gone")
}

// Two runs at once in sibling worktrees of one repository (each with its
// own .autobuild/) both complete: their branches carry their run ids, so
// they never reach for the same one.
func TestSiblingWorktreesRunAtOnce(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, twoSequential)
	sibling := filepath.Join(t.TempDir(), "sibling")
	git(t, repo, "worktree", "add", "-q", "-b", "sibling", sibling)
	agent := agentScript(t, "echo \"$AUTOBUILD_PHASE_ID\" > \"phase-$AUTOBUILD_PHASE_ID.txt\"\nsleep 0.3\n")
	done := make(chan result, 2)
	for _, dir := range []string{repo, sibling} {
		cmd := command(dir, "plan.md", "--commit=auto", "--no-tui", "--agent", agent)
		go func() { done <- runCmd(t, cmd) }()
	}
	for range 2 {
		res := <-done
		require.Equal(t, 0, res.code, res.String())
	}
	require.Equal(t, map[string]int{"1": 1, "2": 1}, phaseCommits(t, repo))
	require.Equal(t, map[string]int{"1": 1, "2": 1}, phaseCommits(t, sibling))
}

// kill -9 of autobuild takes down a daemon its agent started with setsid,
// outside the phase's process group: the guard finds it by its marker.
func TestKill9TakesTheAgentsSetsidDaemonDown(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("needs /proc")
	}
	repo := newRepo(t, safetyPlan)
	pidFile := filepath.Join(t.TempDir(), "daemon")
	agent := agentScript(t, "setsid sh -c 'sleep 300 & echo $! > "+pidFile+".tmp; mv "+pidFile+".tmp "+pidFile+"; wait' >/dev/null 2>&1 &\nsleep 300\n")
	cmd := command(repo, "plan.md", "--no-tui", "--commit=auto", "--agent", agent)
	require.NoError(t, cmd.Start())
	waitFor(t, "the daemon to start", 20*time.Second, func() bool {
		_, err := os.Stat(pidFile)
		return err == nil
	})
	pid, err := strconv.Atoi(strings.TrimSpace(readFileT(t, pidFile)))
	require.NoError(t, err)
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()
	waitFor(t, fmt.Sprintf("the daemon %d to die with autobuild", pid), 20*time.Second, func() bool { return !alive(pid) })
}
