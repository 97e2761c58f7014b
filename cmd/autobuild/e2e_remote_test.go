package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/temporaltest"
)

// The end-to-end tests of --executor temporal: a Temporal dev server on
// 127.0.0.1, two `autobuild worker` processes with their own --dir and
// HOME (two machines), a bare repository as the remote.

// No server: the run and the worker refuse (exit 3) within 10 s, naming
// the address and how to start a server.
func TestRemoteNoServerIsRefused(t *testing.T) {
	t.Parallel()
	addr := temporaltest.ClosedAddress(t)
	repo := newRepo(t, fivePhases)
	bare := filepath.Join(t.TempDir(), "remote.git")
	git(t, t.TempDir(), "init", "-q", "--bare", bare)
	start := time.Now()
	r := autobuild(t, repo, "plan.md", "--commit=auto", "--agent", "sim", "--no-tui",
		"--executor", "temporal", "--remote", bare, "--temporal", addr)
	require.Less(t, time.Since(start), 10*time.Second)
	require.Equal(t, 3, r.code, r.String())
	require.Contains(t, r.stderr, addr)
	require.Contains(t, r.stderr, "temporal server start-dev")
	_, err := os.Stat(filepath.Join(repo, ".autobuild", "run.json"))
	require.True(t, os.IsNotExist(err), "no run was started")

	start = time.Now()
	r = autobuild(t, repo, "worker", "--temporal", addr, "--dir", t.TempDir())
	require.Less(t, time.Since(start), 10*time.Second)
	require.Equal(t, 3, r.code, r.String())
	require.Contains(t, r.stderr, addr)

	r = autobuild(t, repo, "plan.md", "--commit=auto", "--agent", "sim", "--no-tui", "--remote", bare)
	require.Equal(t, 2, r.code, "--remote without --executor temporal: %s", r)
}

// remoteEnv is a dev server, a bare remote and a task queue of a test's own.
type remoteEnv struct {
	addr, bare, queue string
}

func newRemoteEnv(t *testing.T) remoteEnv {
	t.Helper()
	return newRemoteEnvAt(t, temporalDevServer(t))
}

// newRemoteEnvAt is newRemoteEnv with the server at addr.
func newRemoteEnvAt(t *testing.T, addr string) remoteEnv {
	t.Helper()
	bare := filepath.Join(t.TempDir(), "remote.git")
	git(t, t.TempDir(), "init", "-q", "--bare", bare)
	return remoteEnv{addr: addr, bare: bare, queue: "e2e-" + strings.ReplaceAll(t.Name(), "/", "-")}
}

// worker is one `autobuild worker` process, a "machine" of its own: its
// --dir and HOME are its own, and $WORKER_NAME tells the agent whose it is.
type worker struct {
	cmd  *exec.Cmd
	name string
	dir  string
	out  *syncBuffer
}

func (e remoteEnv) startWorker(t *testing.T, name string) *worker {
	t.Helper()
	return e.startWorkerAt(t, name, e.addr)
}

// startWorkerAt starts a worker that reaches the server at addr (a proxy
// that a test cuts, say).
func (e remoteEnv) startWorkerAt(t *testing.T, name, addr string) *worker {
	t.Helper()
	home := t.TempDir()
	w := &worker{name: name, dir: filepath.Join(home, "work"), out: &syncBuffer{}}
	w.cmd = command(home, "worker", "--temporal", addr, "--task-queue", e.queue,
		"--dir", w.dir, "--name", name, "--max-parallel", "1")
	w.cmd.Env = append(w.cmd.Env, "HOME="+home, "WORKER_NAME="+name)
	w.cmd.Stdout, w.cmd.Stderr = w.out, w.out
	w.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	require.NoError(t, w.cmd.Start())
	t.Cleanup(func() {
		_ = syscall.Kill(-w.cmd.Process.Pid, syscall.SIGKILL)
		_ = w.cmd.Wait()
		if t.Failed() {
			t.Logf("worker %s:\n%s", name, w.out.String())
		}
	})
	return w
}

// kill9 kills the worker and its agents at once, as a machine that dies.
func (w *worker) kill9() { _ = syscall.Kill(-w.cmd.Process.Pid, syscall.SIGKILL) }

// remoteAgent writes a phase's file and logs "<phase> <worker> <dir>" to
// calls; extra runs before it writes.
func remoteAgent(t *testing.T, calls, extra string) string {
	return agentScript(t, `echo "$AUTOBUILD_PHASE_ID $WORKER_NAME $(pwd)" >> `+calls+`
`+extra+`
mkdir -p src/$AUTOBUILD_PHASE_ID
echo "phase $AUTOBUILD_PHASE_ID" > src/$AUTOBUILD_PHASE_ID/work.txt
`)
}

// callLines are calls' lines, split into phase, worker and directory.
func callLines(t *testing.T, calls string) [][]string {
	b, err := os.ReadFile(calls)
	require.NoError(t, err)
	var out [][]string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		out = append(out, strings.SplitN(l, " ", 3))
	}
	return out
}

func (e remoteEnv) runArgs(extra ...string) []string {
	return append([]string{"plan.md", "--commit=auto", "--no-tui", "--executor", "temporal",
		"--remote", e.bare, "--temporal", e.addr, "--task-queue", e.queue}, extra...)
}

// A plan with parallel phases runs with every attempt on a worker, none in
// your checkout, both workers used; every phase lands once, and the run's
// refs are gone from the remote (no branch was ever pushed).
func TestRemoteRunUsesBothWorkers(t *testing.T) {
	t.Parallel()
	e := newRemoteEnv(t)
	repo := newRepo(t, fivePhases)
	calls := filepath.Join(t.TempDir(), "calls")
	// 2A and 2B wait for each other: with one attempt at a time per
	// worker, they run on both workers at once.
	marks := t.TempDir()
	agent := remoteAgent(t, calls, `touch `+marks+`/$AUTOBUILD_PHASE_ID
case $AUTOBUILD_PHASE_ID in 2a|2b)
  n=0; while [ ! -e `+marks+`/2a ] || [ ! -e `+marks+`/2b ]; do sleep 0.1; n=$((n+1)); [ $n -gt 600 ] && break; done;;
esac`)
	e.startWorker(t, "w1")
	e.startWorker(t, "w2")
	r := autobuild(t, repo, e.runArgs("--agent", agent, "--max-parallel", "2")...)
	require.Equal(t, 0, r.code, r.String())
	require.Equal(t, map[string]int{"0": 1, "1": 1, "2a": 1, "2b": 1, "3": 1}, phaseCommits(t, repo))
	workers := map[string]bool{}
	for _, c := range callLines(t, calls) {
		require.Len(t, c, 3)
		workers[c[1]] = true
		require.NotContains(t, c[2], repo, "an attempt ran in the user's checkout")
		// The phase file names the worker that made the attempt.
		p := loadPhase(t, repo, c[0])
		require.Len(t, p.Attempts, 1)
		require.Equal(t, c[1], p.Attempts[0].Worker, "phase %s", c[0])
	}
	require.Equal(t, map[string]bool{"w1": true, "w2": true}, workers, "both workers made attempts")
	st := autobuild(t, repo, "status")
	require.Regexp(t, `(?m)^3\s+2A\s.*\sw[12]\s`, st.stdout, "status names the workers")
	rp := autobuild(t, repo, "report")
	require.Contains(t, rp.stdout, "By worker", "report counts the attempts by worker")
	require.Regexp(t, `(?m)^\s*w1\s+\d+\s+0\s`, rp.stdout)
	// watch reads them from the phase files: its list names each phase's
	// worker (enter leaves the summary for the list).
	tm := startInPty(t, repo, "watch")
	mark := tm.waitText("AUTOBUILD COMPLETE", 0, 30*time.Second)
	tm.send("\r")
	tm.waitText("@w", mark, 10*time.Second)
	tm.send("q")
	require.Equal(t, 0, tm.exitCode(10*time.Second))
	require.Contains(t, r.stdout, "ON WORKER")
	require.Empty(t, git(t, repo, "ls-remote", e.bare), "the run's refs are deleted, and no branch was pushed")
	require.Empty(t, git(t, repo, "for-each-ref", "refs/autobuild/"))
	for _, id := range []string{"0", "1", "2a", "2b", "3"} {
		require.FileExists(t, filepath.Join(repo, "src", id, "work.txt"))
	}
}

// A worker killed mid-attempt: the attempt is made again on the other one
// (after the heartbeat timeout), without using up the phase's retry, and
// lands once.
func TestRemoteWorkerKilledMidAttempt(t *testing.T) {
	t.Parallel()
	e := newRemoteEnv(t)
	repo := newRepo(t, "# One\n\n| Phase | Name | Depends On |\n|---|---|---|\n| 1 | Core | - |\n\n## Phase 1: Core\n\n- [ ] do it\n")
	writeFile(t, filepath.Join(repo, "autobuild.toml"), "[executor]\nheartbeat_timeout = \"6s\"\n")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "config")
	calls := filepath.Join(t.TempDir(), "calls")
	started := filepath.Join(t.TempDir(), "started")
	agent := remoteAgent(t, calls, `if [ ! -e `+started+` ]; then echo $$ > `+started+`; sleep 120; fi`)
	w1 := e.startWorker(t, "w1")
	run := command(repo, e.runArgs("--agent", agent)...)
	var out syncBuffer
	run.Stdout, run.Stderr = &out, &out
	require.NoError(t, run.Start())
	waitFor(t, "the first attempt to start", 60*time.Second, func() bool { b, _ := os.ReadFile(started); return len(b) > 0 })
	w1.kill9()
	// The machine died: its agent too (it runs in a process group of its own).
	pid, err := strconv.Atoi(strings.TrimSpace(string(must(os.ReadFile(started)))))
	require.NoError(t, err)
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	e.startWorker(t, "w2")
	require.NoError(t, run.Wait(), out.String())
	lines := callLines(t, calls)
	require.Len(t, lines, 2, "made once on w1, once again on w2")
	require.Equal(t, "w1", lines[0][1])
	require.Equal(t, "w2", lines[1][1])
	require.Equal(t, map[string]int{"1": 1}, phaseCommits(t, repo))
	p := loadPhase(t, repo, "1")
	require.Equal(t, 1, p.Attempt, "the worker's death used no retry")
	require.Len(t, p.Attempts, 1)
	require.Equal(t, "w2", p.Attempts[0].Worker, "the worker that took the attempt over")
}

// The coordinator killed mid-attempt, then --resume: the running attempt
// is not started again, its result lands once.
func TestRemoteCoordinatorKilledThenResumed(t *testing.T) {
	t.Parallel()
	e := newRemoteEnv(t)
	repo := newRepo(t, "# One\n\n| Phase | Name | Depends On |\n|---|---|---|\n| 1 | Core | - |\n\n## Phase 1: Core\n\n- [ ] do it\n")
	calls := filepath.Join(t.TempDir(), "calls")
	started := filepath.Join(t.TempDir(), "started")
	release := filepath.Join(t.TempDir(), "release")
	agent := remoteAgent(t, calls, `touch `+started+`; n=0; while [ ! -e `+release+` ] && [ $n -lt 600 ]; do sleep 0.2; n=$((n+1)); done`)
	e.startWorker(t, "w1")
	run := command(repo, e.runArgs("--agent", agent)...)
	run.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	require.NoError(t, run.Start())
	waitFor(t, "the attempt to start", 60*time.Second, func() bool { _, err := os.Stat(started); return err == nil })
	require.NoError(t, syscall.Kill(-run.Process.Pid, syscall.SIGKILL))
	_ = run.Wait()
	require.NoError(t, os.WriteFile(release, nil, 0o644))

	r := autobuild(t, repo, e.runArgs("--agent", agent, "--resume")...)
	require.Equal(t, 0, r.code, r.String())
	require.Len(t, callLines(t, calls), 1, "the attempt running on the worker was not started again")
	require.Equal(t, map[string]int{"1": 1}, phaseCommits(t, repo))
}

// A phase that fails twice halts the run with the usual box, and resumes.
func TestRemotePhaseFailingTwiceHalts(t *testing.T) {
	t.Parallel()
	e := newRemoteEnv(t)
	repo := newRepo(t, "# One\n\n| Phase | Name | Depends On |\n|---|---|---|\n| 1 | Core | - |\n\n## Phase 1: Core\n\n- [ ] do it\n\n## Quality Gates\n\n- test: `test -e src/1/fixed`\n")
	calls := filepath.Join(t.TempDir(), "calls")
	fixed := filepath.Join(t.TempDir(), "fixed")
	agent := remoteAgent(t, calls, `if [ -e `+fixed+` ]; then mkdir -p src/1; touch src/1/fixed; fi`)
	e.startWorker(t, "w1")
	r := autobuild(t, repo, e.runArgs("--agent", agent)...)
	require.Equal(t, 1, r.code, r.String())
	require.Contains(t, r.stdout+r.stderr, "test_failure")
	require.Contains(t, r.stdout+r.stderr, "--resume")
	require.Len(t, callLines(t, calls), 2)

	require.NoError(t, os.WriteFile(fixed, nil, 0o644))
	r = autobuild(t, repo, e.runArgs("--agent", agent, "--resume")...)
	require.Equal(t, 0, r.code, r.String())
	require.Equal(t, map[string]int{"1": 1}, phaseCommits(t, repo))
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// syncBuffer is a bytes.Buffer safe for a process's two output pipes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// The simulated agent on a worker plays the coordinator's scenario (sent as
// text: the worker is another machine), and a usage limit it reports is
// waited out as locally, without using up the retry.
func TestRemoteSimScenarioAndUsageLimit(t *testing.T) {
	t.Parallel()
	e := newRemoteEnv(t)
	repo := newRepo(t, limitPlan)
	e.startWorker(t, "w1")
	r := autobuild(t, repo, e.runArgs("--agent", "sim", "--scenario", limitScenario(t, "usage 1s"))...)
	require.Equal(t, 0, r.code, r.String())
	require.Contains(t, r.stdout, "WAITING")
	p := loadPhase(t, repo, "1")
	require.Equal(t, state.PhaseComplete, p.Status)
	require.Len(t, p.Attempts, 2)
	require.Equal(t, 1, p.Attempts[1].Number, "the wait used no retry")
	require.Equal(t, "done", git(t, repo, "show", "HEAD:done.txt"))
}

// The workers make the attempts' workspaces: [worktree] setup runs there,
// before the agent, which finds what it made; the coordinator runs it
// nowhere, and says at the start that the ignored files .worktreeinclude
// names do not reach the workers.
func TestRemoteSetupRunsOnTheWorker(t *testing.T) {
	t.Parallel()
	e := newRemoteEnv(t)
	repo := newRepo(t, "# One\n\n| Phase | Name | Depends On |\n|---|---|---|\n| 1 | Core | - |\n\n## Phase 1: Core\n\n- [ ] do it\n\n## Quality Gates\n\n- test: `test -f src/1/work.txt`\n")
	writeFile(t, filepath.Join(repo, ".gitignore"), "deps/\n.env\n")
	setups := filepath.Join(t.TempDir(), "setups")
	teardowns := filepath.Join(t.TempDir(), "teardowns")
	writeFile(t, filepath.Join(repo, "autobuild.toml"),
		"[worktree]\nsetup = \"mkdir -p deps && echo installed > deps/lib && pwd >> "+setups+"\"\n"+
			"teardown = \"test -f deps/lib && pwd >> "+teardowns+"\"\n")
	writeFile(t, filepath.Join(repo, ".worktreeinclude"), ".env\n")
	writeFile(t, filepath.Join(repo, ".env"), "SECRET=local\n")
	git(t, repo, "add", ".gitignore", "autobuild.toml", ".worktreeinclude")
	git(t, repo, "commit", "-q", "-m", "the worktree's setup")
	calls := filepath.Join(t.TempDir(), "calls")
	agent := remoteAgent(t, calls, `test -f deps/lib || exit 7`)
	e.startWorker(t, "w1")
	r := autobuild(t, repo, e.runArgs("--agent", agent)...)
	require.Equal(t, 0, r.code, r.String())
	require.Contains(t, r.stderr, "warning: [worktree] copy / .worktreeinclude name ignored files of your checkout (.env)")
	b, err := os.ReadFile(setups)
	require.NoError(t, err, "the setup ran")
	// It ran in the worker's worktree of the attempt, and here only where
	// the coordinator runs gates itself (the check of the run's base, in
	// its verification worktree), never in a phase's worktree.
	attemptDir := callLines(t, calls)[0][2]
	ranOnWorker := false
	for _, d := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		switch {
		case d == attemptDir:
			ranOnWorker = true
		case d != filepath.Join(repo, ".autobuild", "worktrees", "verify"):
			t.Errorf("the setup ran in %s", d)
		}
	}
	require.True(t, ranOnWorker, "the setup ran in the worker's worktree of the attempt %s: %s", attemptDir, b)
	// The teardown ran there too, once the worker was done with it, and
	// the attempt's log has it.
	require.Equal(t, attemptDir, strings.TrimSpace(string(must(os.ReadFile(teardowns)))))
	require.Contains(t, string(must(os.ReadFile(filepath.Join(repo, ".autobuild", "logs", "phase-1.attempt-1.log")))),
		"# autobuild: teardown: test -f deps/lib")
	require.NotContains(t, attemptDir, repo)
	require.NoDirExists(t, filepath.Join(repo, "deps"))
	require.Equal(t, map[string]int{"1": 1}, phaseCommits(t, repo))
}

// --allow-red-base reaches the workers: the base's gate already fails with
// TestOld; the run goes on, and the gate on the worker, failing with only
// TestOld, passes (its known failures counted), as a local one does. A
// worker that did not know the base's failures would fail the phase twice.
// The attempt is not held back for the base check: the check's gate waits
// for the agent on the worker to have started (as a local agent starts
// beside the check), and the worker, whose gate fails before the check
// has told the run its verdict, asks for it.
func TestRemoteAllowRedBase(t *testing.T) {
	t.Parallel()
	e := newRemoteEnv(t)
	calls := filepath.Join(t.TempDir(), "calls")
	seen := filepath.Join(t.TempDir(), "seen")
	gate := `rc=0; if test -f old.txt; then ` +
		`if ! test -f src/1/work.txt; then i=0; while [ ! -s ` + calls + ` ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; ` +
		`if test -s ` + calls + `; then echo beside >> ` + seen + `; else echo after >> ` + seen + `; fi; fi; ` +
		`echo "--- FAIL: TestOld (0.00s)"; rc=1; fi; ` +
		`if test -f new.txt; then echo "--- FAIL: TestNew (0.00s)"; rc=1; fi; exit $rc`
	repo := newRepo(t, "# One\n\n| Phase | Name | Depends On |\n|---|---|---|\n| 1 | Core | - |\n\n## Phase 1: Core\n\n- [ ] do it\n\n## Quality Gates\n\n- test: `"+gate+"`\n")
	writeFile(t, filepath.Join(repo, "old.txt"), "red\n")
	git(t, repo, "add", "old.txt")
	git(t, repo, "commit", "-q", "-m", "red already")
	e.startWorker(t, "w1")
	r := autobuild(t, repo, e.runArgs("--agent", remoteAgent(t, calls, ""), "--allow-red-base")...)
	require.Equal(t, 0, r.code, r.String())
	require.Equal(t, "w1", callLines(t, calls)[0][1], "the attempt ran on the worker")
	p := loadPhase(t, repo, "1")
	require.Equal(t, 1, p.Attempt, "no retry")
	require.Equal(t, 1, p.QualityGates["test"].KnownFailures, "the worker's gate passed with the base's TestOld failing")
	require.Equal(t, map[string]int{"1": 1}, phaseCommits(t, repo))
	for _, l := range strings.Fields(string(must(os.ReadFile(seen)))) {
		require.Equal(t, "beside", l, "the base check ran while the agent on the worker ran")
	}
	require.Contains(t, string(must(os.ReadFile(filepath.Join(repo, ".autobuild", "logs", "phase-1.attempt-1.log")))),
		"asking the coordinator's check of the run's base", "the worker asked the run for the base's verdict")
}
