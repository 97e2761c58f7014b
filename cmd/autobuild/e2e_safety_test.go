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

// userAgent is an agent whose phase 2 does, in the user's checkout, what a
// person at another terminal might do mid-run (userAction, a shell
// snippet run in the repository), then writes its own work.
func userAgent(t *testing.T, userAction string) string {
	return agentScript(t, `repo=$(dirname "$AUTOBUILD_PLAN")
echo "$AUTOBUILD_PHASE_ID" >> "$repo/../calls"
if [ "$AUTOBUILD_PHASE_ID" = 2 ]; then
  (cd "$repo" && `+userAction+`)
  printf 'one\ntwo\nphase two\n' > shared.txt
else
  printf 'one\ntwo\nthree\n' > shared.txt
fi
`)
}

// A user who switches branches mid-run gets a halt that says so, and the
// other branch gets no phase commit.
func TestSwitchedBranchMidRunHalts(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, twoSequential)
	res := autobuild(t, repo, "plan.md", "--commit=auto", "--no-tui", "--agent", userAgent(t, "git switch -q -c elsewhere"))
	require.Equal(t, 1, res.code, res.String())
	require.Contains(t, res.stdout, "branch_changed", res.String())
	require.Contains(t, res.stdout, "lands on branch main, but your checkout is on elsewhere", res.String())
	require.Equal(t, map[string]int{"1": 1}, phaseCommits(t, repo), "phase 2 did not land on elsewhere")
	require.Equal(t, "branch_changed", string(loadPhase(t, repo, "2").Error.Type))

	res = autobuild(t, repo, "plan.md", "--resume", "--no-tui")
	require.Equal(t, 3, res.code, "resuming on the other branch is refused: %s", res.String())
	require.Contains(t, res.stderr, "git switch main")
	git(t, repo, "switch", "-q", "main")
	res = autobuild(t, repo, "plan.md", "--resume", "--no-tui", "--agent", agentScript(t, "echo done > two.txt\n"))
	require.Equal(t, 0, res.code, res.String())
	require.Equal(t, map[string]int{"1": 1, "2": 1}, phaseCommits(t, repo))
}

// The user's own commit mid-run on other files: the phase lands on top of
// it, nothing is re-run, the run completes.
func TestUsersCommitMidRunLandsOnTop(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, twoSequential)
	res := autobuild(t, repo, "plan.md", "--commit=auto", "--no-tui", "--agent",
		userAgent(t, "echo mine >> README.md && git commit -qam 'my own commit'"))
	require.Equal(t, 0, res.code, res.String())
	require.Equal(t, []string{"feat", "my own commit", "feat"}, subjectsPrefix(t, repo, 3))
	require.Equal(t, "one\ntwo\nphase two", git(t, repo, "show", "HEAD:shared.txt"))
	require.Contains(t, git(t, repo, "show", "HEAD:README.md"), "mine")
	require.Equal(t, "1\n2\n", readFileT(t, filepath.Join(repo, "..", "calls")), "no phase ran twice")
}

// The user's own commit mid-run on the lines the phase changes: a halt that
// names both sides, file_conflict (not agent_error), and no re-run.
func TestUsersOverlappingCommitMidRunHaltsNamingBothSides(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, twoSequential)
	res := autobuild(t, repo, "plan.md", "--commit=auto", "--no-tui", "--agent",
		userAgent(t, "printf 'one\\ntwo\\nmine\\n' > shared.txt && git commit -qam 'my edit'"))
	require.Equal(t, 1, res.code, res.String())
	ps := loadPhase(t, repo, "2")
	require.Equal(t, "file_conflict", string(ps.Error.Type), res.String())
	require.Contains(t, ps.Error.Message, "phase 2 and your commits")
	require.Contains(t, ps.Error.Message, "on main")
	require.Equal(t, "1\n2\n", readFileT(t, filepath.Join(repo, "..", "calls")), "the agent is not re-run for nothing")
	require.Equal(t, "my edit", git(t, repo, "log", "-1", "--format=%s"))
}

// subjectsPrefix returns the first word (the commit type, or the whole
// subject for the user's commits) of the n newest commits, oldest first.
func subjectsPrefix(t *testing.T, repo string, n int) []string {
	t.Helper()
	var out []string
	for _, s := range strings.Split(git(t, repo, "log", "-"+strconv.Itoa(n), "--reverse", "--format=%s"), "\n") {
		if typ, _, ok := strings.Cut(s, "("); ok && !strings.Contains(typ, " ") {
			s = typ
		} else if typ, _, ok := strings.Cut(s, ":"); ok && !strings.Contains(typ, " ") {
			s = typ
		}
		out = append(out, s)
	}
	return out
}

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

// In single mode, a commit of yours on other files during the run is kept
// and the run's one commit lands on top of it.
func TestUsersCommitMidRunSingleMode(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, twoSequential)
	res := autobuild(t, repo, "plan.md", "--commit=single", "--no-tui", "--agent",
		userAgent(t, "echo mine >> README.md && git commit -qam 'my own commit'"))
	require.Equal(t, 0, res.code, res.String())
	require.Equal(t, "my own commit", git(t, repo, "log", "-1", "--skip=1", "--format=%s"))
	require.Equal(t, "one\ntwo\nphase two", git(t, repo, "show", "HEAD:shared.txt"))
	require.Contains(t, git(t, repo, "show", "HEAD:README.md"), "mine")
}

// A fast-forward of your branch that fails at the last instant (the branch
// changed between the check and the landing) takes the phase back off the
// run's line and halts as branch_changed; the resume lands every phase
// exactly once.
func TestFailedFastForwardIsTakenBackAndResumes(t *testing.T) {
	t.Parallel()
	real, err := exec.LookPath("git")
	require.NoError(t, err)
	bin := t.TempDir()
	script := "#!/bin/sh\ncase \" $* \" in\n*\" merge --ff-only \"*) echo 'fatal: Not possible to fast-forward, aborting.' >&2; exit 128 ;;\nesac\nexec " + real + " \"$@\"\n"
	require.NoError(t, os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755))
	repo := newRepo(t, twoSequential)
	agent := agentScript(t, "echo \"$AUTOBUILD_PHASE_ID\" > \"phase-$AUTOBUILD_PHASE_ID.txt\"\n")
	cmd := command(repo, "plan.md", "--commit=auto", "--no-tui", "--agent", agent)
	cmd.Env = append(cmd.Env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	res := runCmd(t, cmd)
	require.Equal(t, 1, res.code, res.String())
	ps := loadPhase(t, repo, "1")
	require.Equal(t, "branch_changed", string(ps.Error.Type), res.String())
	require.Contains(t, ps.Error.Message, "could not land on your branch")
	require.Equal(t, loadRun(t, repo).BaseCommit, loadRun(t, repo).IntegrationCommit, "taken back off the line")

	res = autobuild(t, repo, "plan.md", "--resume", "--no-tui")
	require.Equal(t, 0, res.code, res.String())
	require.Equal(t, map[string]int{"1": 1, "2": 1}, phaseCommits(t, repo))
}
