package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/temporaltest"
)

// The failures of docs/remote.md's table that the server and the network
// cause: the Temporal server killed and started again, and a partition
// between the processes and the server.

// oneThenTwo is 1 then 2: the run must go on after phase 1 to complete.
const oneThenTwo = "# Two\n\n| Phase | Name | Depends On |\n|---|---|---|\n| 1 | Core | - |\n| 2 | Next | 1 |\n\n" +
	"## Phase 1: Core\n\n- [ ] do it\n\n## Phase 2: Next\n\n- [ ] then this\n"

// holdingAgent logs its calls and, the first time it runs phase 1, writes
// its pid to started and waits (at most a minute) for release.
func holdingAgent(t *testing.T, calls, started, release string) string {
	return remoteAgent(t, calls, `if [ "$AUTOBUILD_PHASE_ID" = 1 ] && [ ! -e `+started+` ]; then
  echo $$ > `+started+`
  n=0; while [ ! -e `+release+` ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n+1)); done
fi`)
}

// heldRun is a run of oneThenTwo whose agent holds phase 1's first
// attempt until released (holdingAgent): calls lists each agent call.
type heldRun struct {
	calls, started, release, agent string
	cmd                            *exec.Cmd
	out                            syncBuffer
}

func newHeldRun(t *testing.T) *heldRun {
	tmp := t.TempDir()
	h := &heldRun{calls: filepath.Join(tmp, "calls"), started: filepath.Join(tmp, "started"), release: filepath.Join(tmp, "release")}
	h.agent = holdingAgent(t, h.calls, h.started, h.release)
	return h
}

// start runs autobuild on repo with e's flags and waits until phase 1's
// attempt holds (what names the wait).
func (h *heldRun) start(t *testing.T, e remoteEnv, repo, what string) {
	t.Helper()
	h.cmd = command(repo, e.runArgs("--agent", h.agent)...)
	h.cmd.Stdout, h.cmd.Stderr = &h.out, &h.out
	require.NoError(t, h.cmd.Start())
	waitFor(t, what, 60*time.Second, fileWritten(h.started))
}

// letGo ends the held attempt's agent.
func (h *heldRun) letGo(t *testing.T) { require.NoError(t, os.WriteFile(h.release, nil, 0o644)) }

func fileWritten(path string) func() bool {
	return func() bool { b, err := os.ReadFile(path); return err == nil && len(b) > 0 }
}

// The server killed (kill -9) mid-attempt and started again on the same
// address. With its database (a server that keeps its state: a cluster,
// Cloud, tools/temporal-dev --db-file) the workers and the coordinator
// reconnect, the attempt's result is taken, and each phase is made and
// lands once. Without it (the in-memory dev server) the run's workflow is
// gone: the coordinator starts it again and the attempt is made again,
// which is not the phase's retry; each phase still lands once.
func TestRemoteServerRestarts(t *testing.T) {
	t.Parallel()
	for name, keep := range map[string]bool{"with its database": true, "in memory": false} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var db string
			if keep {
				db = filepath.Join(t.TempDir(), "temporal.db")
			}
			srv := temporaltest.StartServer(t, temporaltest.Config{DBFile: db})
			e := newRemoteEnvAt(t, srv.HostPort)
			repo := newRepo(t, oneThenTwo)
			h := newHeldRun(t)
			e.startWorker(t, "w1")
			h.start(t, e, repo, "phase 1's attempt to start")

			srv.Kill()
			// The agent ends while the server is down: its worker's answer waits.
			h.letGo(t)
			time.Sleep(time.Second)
			temporaltest.StartServer(t, temporaltest.Config{DBFile: db, Port: srv.Port})

			require.NoError(t, h.cmd.Wait(), h.out.String())
			var made []string
			for _, l := range callLines(t, h.calls) {
				made = append(made, l[0])
			}
			if keep {
				require.Equal(t, []string{"1", "2"}, made, "each phase made once")
			} else {
				require.Equal(t, []string{"1", "1", "2"}, made, "phase 1 made again in the new workflow")
			}
			require.Equal(t, map[string]int{"1": 1, "2": 1}, phaseCommits(t, repo))
			p := loadPhase(t, repo, "1")
			require.Equal(t, 1, p.Attempt, "the restart used no retry")
			require.Len(t, p.Attempts, 1)
			require.Empty(t, git(t, repo, "ls-remote", e.bare), "the run's refs are deleted")
		})
	}
}

// A partition of a few seconds between every process (the coordinator and
// the worker) and the server, while the agent works and ends: once the
// network is back the attempt's result comes through, made once.
func TestRemoteShortPartition(t *testing.T) {
	t.Parallel()
	srv := temporaltest.StartServer(t, temporaltest.Config{})
	proxy := startProxy(t, srv.HostPort)
	e := newRemoteEnvAt(t, proxy.Addr())
	repo := newRepo(t, oneThenTwo)
	h := newHeldRun(t)
	e.startWorker(t, "w1")
	h.start(t, e, repo, "phase 1's attempt to start")

	proxy.Cut()
	h.letGo(t)
	time.Sleep(4 * time.Second)
	proxy.Restore()

	require.NoError(t, h.cmd.Wait(), h.out.String())
	lines := callLines(t, h.calls)
	require.Len(t, lines, 2, "phase 1 and phase 2, each made once: %v", lines)
	require.Equal(t, map[string]int{"1": 1, "2": 1}, phaseCommits(t, repo))
	require.Equal(t, 1, loadPhase(t, repo, "1").Attempt)
}

// A worker cut off from the server for longer than the heartbeat timeout
// is taken for dead: the attempt is made again on the other worker,
// without using up the phase's retry, and lands once. The cut-off worker's
// agent ends after the run: the worker does not push its work while it
// cannot reach the server, and once the network is back it hears that the
// attempt is no longer its own and drops it; nothing of it lands or stays
// on the remote.
func TestRemoteWorkerPartitioned(t *testing.T) {
	t.Parallel()
	srv := temporaltest.StartServer(t, temporaltest.Config{})
	proxy := startProxy(t, srv.HostPort)
	e := newRemoteEnvAt(t, srv.HostPort)
	repo := newRepo(t, oneThenTwo)
	writeFile(t, filepath.Join(repo, "autobuild.toml"), "[executor]\nheartbeat_timeout = \"6s\"\n")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "config")
	h := newHeldRun(t)
	w1 := e.startWorkerAt(t, "w1", proxy.Addr())
	h.start(t, e, repo, "phase 1's attempt to start on w1")

	proxy.Cut()
	e.startWorker(t, "w2")
	require.NoError(t, h.cmd.Wait(), h.out.String())
	lines := callLines(t, h.calls)
	require.Len(t, lines, 3, "phase 1 on w1, again on w2, then phase 2: %v", lines)
	require.Equal(t, []string{"1", "w1"}, lines[0][:2])
	require.Equal(t, []string{"1", "w2"}, lines[1][:2])
	require.Equal(t, map[string]int{"1": 1, "2": 1}, phaseCommits(t, repo))
	p := loadPhase(t, repo, "1")
	require.Equal(t, 1, p.Attempt, "the partition used no retry")
	require.Len(t, p.Attempts, 1)
	require.Equal(t, "w2", p.Attempts[0].Worker)

	// w1's agent ends while w1 is still cut off: w1 does not push.
	pid, err := strconv.Atoi(strings.TrimSpace(string(must(os.ReadFile(h.started)))))
	require.NoError(t, err)
	h.letGo(t)
	waitFor(t, "w1's agent to end", 30*time.Second, func() bool { return syscall.Kill(pid, 0) != nil })
	time.Sleep(2 * time.Second)
	require.Empty(t, git(t, repo, "ls-remote", e.bare), "w1 pushed while it could not reach the server")
	// The network comes back: w1 hears its attempt timed out and drops it.
	proxy.Restore()
	waitFor(t, "w1 to drop its attempt", 30*time.Second, func() bool {
		left, _ := filepath.Glob(filepath.Join(w1.dir, "work", "*", "*"))
		return len(left) == 0
	})
	require.Empty(t, git(t, repo, "ls-remote", e.bare), "nothing of w1's attempt is on the remote")
	require.Contains(t, w1.out.String(), "worker w1 did not push")
	require.Equal(t, map[string]int{"1": 1, "2": 1}, phaseCommits(t, repo))
}
