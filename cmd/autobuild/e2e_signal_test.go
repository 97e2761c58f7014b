package main

import (
	"bytes"
	"errors"
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

	"github.com/autobuild-sh/autobuild/internal/state"
)

// alive reports whether a process exists and is not a zombie.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

func readPID(t *testing.T, path string) int {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(t, err)
	return pid
}

// sleepyAgent records its pid and its child's pid, then waits forever.
func sleepyAgent(t *testing.T, pids string) string {
	return agentScript(t, `echo $$ > `+pids+`/$AUTOBUILD_PHASE_ID.pid
sleep 300 &
echo $! > `+pids+`/$AUTOBUILD_PHASE_ID.child
echo "working"
wait`)
}

func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// startTwoSleepyPhases starts a run of two parallel phases whose agents
// (and a child each) sleep, and returns once all four processes are up.
func startTwoSleepyPhases(t *testing.T) (repo, pids string, cmd *exec.Cmd, out *bytes.Buffer) {
	t.Helper()
	repo = newRepo(t, twoParallel)
	pids = t.TempDir()
	cmd = command(repo, "plan.md", "--no-tui", "--commit=auto", "--agent", sleepyAgent(t, pids))
	out = new(bytes.Buffer)
	cmd.Stdout, cmd.Stderr = out, out
	require.NoError(t, cmd.Start())
	waitForBothChildren(t, pids)
	return repo, pids, cmd, out
}

func TestInterruptHaltsGracefullyAndLeavesNoProcess(t *testing.T) {
	t.Parallel()
	repo, pids, cmd, out := startTwoSleepyPhases(t)
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		require.Equal(t, 130, exitCode(err), out.String())
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("autobuild did not stop after Ctrl-C:\n%s", out.String())
	}
	for _, f := range []string{"1a.pid", "1a.child", "1b.pid", "1b.child"} {
		pid := readPID(t, filepath.Join(pids, f))
		require.False(t, alive(pid), "process %s (%d) was left running", f, pid)
	}
	require.Contains(t, out.String(), "AUTOBUILD INTERRUPTED")
	require.Equal(t, state.RunInterrupted, loadRun(t, repo).Status)
	p := loadPhase(t, repo, "1a")
	require.Equal(t, state.PhasePending, p.Status, "an interrupted phase is not a failure")
	require.Equal(t, state.OutcomeInterrupted, p.Attempts[0].Outcome)
}

func TestSecondRunIsRefusedWhileTheLockIsHeld(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, twoParallel)
	pids := t.TempDir()
	first := command(repo, "plan.md", "--no-tui", "--commit=auto", "--agent", sleepyAgent(t, pids))
	require.NoError(t, first.Start())
	defer func() { _ = first.Process.Kill(); _ = first.Wait() }()
	waitFor(t, "the first run to start its agents", 20*time.Second, func() bool {
		_, err := os.Stat(filepath.Join(pids, "1a.pid"))
		return err == nil
	})
	r := autobuild(t, repo, "plan.md", "--no-tui", "--agent", "true")
	require.Equal(t, 3, r.code, r.String())
	require.Contains(t, r.stderr, fmt.Sprintf("pid %d", first.Process.Pid))

	require.NoError(t, first.Process.Signal(os.Interrupt))
	require.Equal(t, 130, exitCode(first.Wait()))
}

// A kill -9 at any instant loses nothing: resuming completes the plan with
// exactly one commit per phase and no torn state file. The named crash
// points stop the process inside the window between landing a commit and
// writing the state; the timed kills hit wherever they hit.
func TestKill9ThenResume(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		crash string
		after time.Duration
	}{
		{name: "after-commit", crash: "after-commit"},
		{name: "after-integrate", crash: "after-integrate"},
		{name: "after-fastforward", crash: "after-fastforward"},
		{name: "timed-400ms", after: 400 * time.Millisecond},
		{name: "timed-1100ms", after: 1100 * time.Millisecond},
		{name: "timed-1900ms", after: 1900 * time.Millisecond},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			repo := newRepo(t, fivePhases)
			calls := filepath.Join(t.TempDir(), "calls")
			agent := workingAgent(t, calls, "sleep 0.2")
			cmd := command(repo, "plan.md", "--no-tui", "--commit=auto", "--agent", agent)
			if c.crash != "" {
				cmd.Env = append(cmd.Env, "AUTOBUILD_CRASH_AT="+c.crash+":2a")
			}
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			require.NoError(t, cmd.Start())
			if c.after > 0 {
				time.Sleep(c.after)
				_ = cmd.Process.Signal(syscall.SIGKILL)
			}
			_ = cmd.Wait()

			for _, f := range stateFiles(t, repo) {
				jsonValid(t, f)
			}
			again := "--resume"
			if _, err := os.Stat(filepath.Join(repo, ".autobuild", "run.json")); err != nil {
				// Killed before the run was written down: nothing to
				// resume, the same command starts it.
				again = "--commit=auto"
			}
			r := autobuild(t, repo, "plan.md", "--no-tui", again, "--agent", agent)
			require.Equal(t, 0, r.code, "first run:\n%s\nagain:\n%s", out.String(), r.String())
			require.Equal(t, map[string]int{"0": 1, "1": 1, "2a": 1, "2b": 1, "3": 1}, phaseCommits(t, repo),
				"every phase landed exactly once")
			require.Empty(t, git(t, repo, "status", "--porcelain"))
			for _, id := range []string{"0", "1", "2a", "2b", "3"} {
				p := loadPhase(t, repo, id)
				require.Equal(t, state.PhaseComplete, p.Status)
				require.NotNil(t, p.Commit, "phase %s", id)
				sha := git(t, repo, "log", "--format=%H", "--grep", "^Autobuild-Phase: "+id+"$")
				require.Equal(t, sha, p.Commit.SHA, "phase %s records the commit that landed", id)
				require.Equal(t, git(t, repo, "log", "-1", "--format=%B", sha)+"\n", p.Commit.Message)
				require.NotEmpty(t, p.Commit.FilesCreated, "phase %s", id)
				require.Equal(t, state.OutcomeComplete, p.Attempts[len(p.Attempts)-1].Outcome)
			}
		})
	}
}

func stateFiles(t *testing.T, repo string) []string {
	var files []string
	dir := filepath.Join(repo, ".autobuild")
	if _, err := os.Stat(filepath.Join(dir, "run.json")); err == nil {
		files = append(files, filepath.Join(dir, "run.json"))
	}
	more, _ := filepath.Glob(filepath.Join(dir, "phases", "*.json"))
	return append(files, more...)
}

// kill -9 of autobuild leaves no agent and nothing the agent started: the
// agents' own children are in their phase's process group, which its guard
// kills when autobuild goes. The resume that follows runs both phases again.
func TestKill9LeavesNoProcess(t *testing.T) {
	t.Parallel()
	repo, pids, cmd, out := startTwoSleepyPhases(t)
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()
	for _, f := range []string{"1a.pid", "1a.child", "1b.pid", "1b.child"} {
		pid := readPID(t, filepath.Join(pids, f))
		waitFor(t, fmt.Sprintf("process %s (%d) to die with autobuild", f, pid), 20*time.Second,
			func() bool { return !alive(pid) })
	}

	st := autobuild(t, repo, "status")
	require.Equal(t, 130, st.code, "a stopped run is an interrupted one\n%s", st)
	require.Contains(t, st.stdout, fmt.Sprintf("stopped (its autobuild process, pid %d, is gone)", cmd.Process.Pid),
		"run.json still says running; status tells the truth")
	require.Contains(t, st.stdout, "autobuild plan.md --resume")

	r := autobuild(t, repo, "plan.md", "--no-tui", "--resume", "--agent", "true")
	require.Equal(t, 0, r.code, "first run:\n%s\nresume:\n%s", out.String(), r.String())
	for _, id := range []string{"1a", "1b"} {
		p := loadPhase(t, repo, id)
		require.Equal(t, state.PhaseComplete, p.Status)
		require.Equal(t, 1, p.Attempt, "the killed attempt did not use up the retry")
		require.Equal(t, state.OutcomeInterrupted, p.Attempts[0].Outcome)
	}
}

// The first Ctrl-C sends SIGTERM to every running phase's process group; an
// agent that ignores it is killed by the second Ctrl-C, and the run still
// ends as interrupted, with nothing left running.
func TestSecondInterruptKillsStubbornAgents(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, twoParallel)
	pids := t.TempDir()
	agent := agentScript(t, `trap 'echo TERM >> `+pids+`/$AUTOBUILD_PHASE_ID.term' TERM
echo $$ > `+pids+`/$AUTOBUILD_PHASE_ID.pid
sleep 300 &
echo $! > `+pids+`/$AUTOBUILD_PHASE_ID.child
while :; do wait; done`)
	cmd := command(repo, "plan.md", "--no-tui", "--commit=auto", "--agent", agent)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Start())
	waitForBothChildren(t, pids)
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	waitFor(t, "the agents to get SIGTERM", 20*time.Second, func() bool {
		_, e1 := os.Stat(filepath.Join(pids, "1a.term"))
		_, e2 := os.Stat(filepath.Join(pids, "1b.term"))
		return e1 == nil && e2 == nil
	})
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	require.Equal(t, 130, exitCode(cmd.Wait()), "stdout:\n%s\nstderr:\n%s", &stdout, &stderr)
	require.Contains(t, stderr.String(), "Ctrl-C again to kill them now")
	require.Contains(t, stderr.String(), "killing running phases")
	for _, f := range []string{"1a.pid", "1a.child", "1b.pid", "1b.child"} {
		pid := readPID(t, filepath.Join(pids, f))
		require.False(t, alive(pid), "process %s (%d) was left running", f, pid)
	}
	require.Equal(t, state.RunInterrupted, loadRun(t, repo).Status)
	for _, id := range []string{"1a", "1b"} {
		p := loadPhase(t, repo, id)
		require.Equal(t, state.PhasePending, p.Status)
		require.Equal(t, state.OutcomeInterrupted, p.Attempts[0].Outcome)
	}
}

// gitInterruptingPick puts a git on PATH that sends autobuild Ctrl-C when
// it is asked for the n-th pick (a merge-tree: a pick is made in git's
// objects) and then hangs
// until it is stopped, as a slow pick interrupted by a person would. Every
// other command goes to the real git. It returns the PATH to run with.
func gitInterruptingPick(t *testing.T, n int) string {
	t.Helper()
	real, err := exec.LookPath("git")
	require.NoError(t, err)
	bin := t.TempDir()
	count := filepath.Join(t.TempDir(), "picks")
	script := `#!/bin/sh
case " $* " in
*" merge-tree "*)
	n=$(( $(cat ` + count + ` 2>/dev/null || echo 0) + 1 ))
	echo $n > ` + count + `
	if [ $n = ` + strconv.Itoa(n) + ` ]; then kill -INT $PPID; exec sleep 300; fi ;;
esac
exec ` + real + ` "$@"
`
	require.NoError(t, os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755))
	return bin + string(os.PathListSeparator) + os.Getenv("PATH")
}

// A Ctrl-C while --resume replays the run's commits onto a fix (the modes
// that leave the branch alone) puts the run's line back as it was, says
// what it interrupted, and loses nothing: the next resume replays them all
// and every completed phase's work reaches the work tree.
func TestInterruptDuringReplayOnAFix(t *testing.T) {
	t.Parallel()
	repo, calls, agent := haltedRun(t, "message-only")
	commitFix(t, repo)

	// Phases 0, 1 and 2B are on the run's line: interrupted at the second.
	cmd := command(repo, "plan.md", "--no-tui", "--resume", "--agent", agent)
	cmd.Env = append(cmd.Env, "PATH="+gitInterruptingPick(t, 2))
	r := runCmd(t, cmd)
	require.Equal(t, 130, r.code, r.String())
	require.Contains(t, r.stderr, "interrupted before any phase started, while replaying the run's completed phases onto your commits")
	require.Contains(t, r.stderr, "run the same command again to continue")
	require.NotContains(t, r.stderr, "signal: terminated", "the step is named, not git's exit status")
	require.Empty(t, loadRun(t, repo).ReplayFrom, "the run's line was put back, nothing left to redo")

	resumeRerunsNothing(t, repo, calls, agent)
	requireEveryPhasesWork(t, repo)
}

// A phase set to pending by hand (documented recovery) whose re-run is
// interrupted runs again on the next resume: the commit its earlier
// completion left on the line does not pass for the interrupted attempt's.
func TestInterruptedRerunOfAPhaseSetToPendingRunsAgain(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, fivePhases)
	calls := filepath.Join(t.TempDir(), "calls")
	pids, hold := t.TempDir(), filepath.Join(t.TempDir(), "hold")
	agent := workingAgent(t, calls, `echo "run $(wc -l < `+calls+`)" > "src/$AUTOBUILD_PHASE_ID/run.txt"
if [ "$AUTOBUILD_PHASE_ID" = 3 ] && [ -f `+hold+` ]; then echo $$ > `+pids+`/3.pid; sleep 300 & wait; fi`)
	first := command(repo, "plan.md", "--no-tui", "--commit=auto", "--agent", agent)
	// Git dates have whole seconds, and a person's edit takes longer than
	// this test's: the phases completed a while before the edit.
	first.Env = append(first.Env, "GIT_AUTHOR_DATE=2001-02-03T04:05:06Z")
	r := runCmd(t, first)
	require.Equal(t, 0, r.code, r.String())

	path := filepath.Join(repo, ".autobuild", "phases", "phase-3.json")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	edited := strings.Replace(string(b), `"status": "complete"`, `"status": "pending"`, 1)
	require.NotEqual(t, string(b), edited)
	writeFile(t, path, edited)

	writeFile(t, hold, "")
	cmd := command(repo, "plan.md", "--no-tui", "--resume", "--agent", agent)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Start())
	waitFor(t, "phase 3 to run again", 20*time.Second, func() bool {
		_, err := os.Stat(filepath.Join(pids, "3.pid"))
		return err == nil
	})
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	require.Equal(t, 130, exitCode(cmd.Wait()), out.String())
	require.Equal(t, state.OutcomeInterrupted, loadPhase(t, repo, "3").Attempts[1].Outcome)

	require.NoError(t, os.Remove(hold))
	r = autobuild(t, repo, "plan.md", "--no-tui", "--resume", "--agent", agent)
	require.Equal(t, 0, r.code, r.String())
	require.Equal(t, 3, countCalls(t, calls, "3"), "the interrupted re-run is run again")
	require.Equal(t, map[string]int{"0": 1, "1": 1, "2a": 1, "2b": 1, "3": 2}, phaseCommits(t, repo))
	p := loadPhase(t, repo, "3")
	require.Equal(t, state.PhaseComplete, p.Status)
	require.Equal(t, git(t, repo, "rev-parse", "HEAD"), p.Commit.SHA, "the new commit, not the earlier one")
	require.Len(t, p.Attempts, 3)
	require.Equal(t, state.OutcomeComplete, p.Attempts[2].Outcome)
}

// kill -9 after a message-only run recorded itself complete (while it
// printed its summary): nothing is lost and nothing is left to resume. The
// work tree holds every phase's change, a resume refuses with the advice
// for a complete run, and commits.sh makes the commits.
func TestKill9AfterTheRunRecordedItselfComplete(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, fivePhases)
	agent := workingAgent(t, filepath.Join(t.TempDir(), "calls"), "")
	cmd := command(repo, "plan.md", "--no-tui", "--commit=message-only", "--agent", agent)
	cmd.Env = append(cmd.Env, "AUTOBUILD_CRASH_AT=run-recorded:complete")
	out, _ := cmd.CombinedOutput()
	require.Contains(t, cmd.ProcessState.String(), "killed", string(out))

	run, err := state.Open(repo).LoadRun()
	require.NoError(t, err)
	require.Equal(t, state.RunComplete, run.Status)
	r := autobuild(t, repo, "plan.md", "--no-tui", "--resume", "--agent", agent)
	require.NotEqual(t, 0, r.code)
	require.Contains(t, r.stdout+r.stderr, "is complete and left its changes uncommitted")
	c := exec.Command("sh", ".autobuild/commits.sh")
	c.Dir = repo
	b, err := c.CombinedOutput()
	require.NoError(t, err, string(b))
	require.Equal(t, map[string]int{"0": 1, "1": 1, "2a": 1, "2b": 1, "3": 1}, phaseCommits(t, repo))
	require.Empty(t, git(t, repo, "status", "--porcelain"))
}
