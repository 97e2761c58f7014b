package proc

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// escapeesShell starts three processes that leave the shell's process
// group or its family, writes their pids to dir, and exits (or waits, when
// wait is set): a setsid daemon, a double fork, and a setsid daemon's own
// child.
func escapeesShell(dir string, wait bool) string {
	s := "setsid sleep 300 >/dev/null 2>&1 & echo $! > " + dir + "/setsid.tmp; mv " + dir + "/setsid.tmp " + dir + "/setsid; " +
		"(sleep 301 >/dev/null 2>&1 & echo $! > " + dir + "/double.tmp; mv " + dir + "/double.tmp " + dir + "/double); " +
		"setsid sh -c 'sleep 302 >/dev/null 2>&1 & echo $! > " + dir + "/nested.tmp; mv " + dir + "/nested.tmp " + dir + "/nested; wait' >/dev/null 2>&1 & " +
		"while [ ! -e " + dir + "/nested ]; do sleep 0.01; done; echo started > " + dir + "/ready"
	if wait {
		s += "; sleep 300"
	}
	return s
}

func escapeePIDs(t *testing.T, dir string) []int {
	t.Helper()
	var pids []int
	for _, name := range []string{"setsid", "double", "nested"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		require.NoError(t, err)
		pids = append(pids, pid)
	}
	return pids
}

func requireProcFS(t *testing.T) {
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("needs /proc to find the processes that left the group")
	}
}

// Processes that left the child's process group (setsid daemons, double
// forks) die when the child's run ends: nothing outlives its phase.
func TestEscapeesDieWithTheRun(t *testing.T) {
	requireProcFS(t)
	dir := t.TempDir()
	res := Run(context.Background(), Spec{Shell: escapeesShell(dir, false)})
	require.Equal(t, 0, res.ExitCode, res.Tail)
	for _, pid := range escapeePIDs(t, dir) {
		require.False(t, running(pid), "pid %d outlived its run", pid)
	}
}

// The same when the run is stopped (a timeout, Ctrl-C).
func TestEscapeesDieWhenTheRunIsStopped(t *testing.T) {
	requireProcFS(t)
	dir := t.TempDir()
	res := Run(context.Background(), Spec{Shell: escapeesShell(dir, true), Timeout: 2 * time.Second, Grace: 100 * time.Millisecond})
	require.True(t, res.TimedOut)
	for _, pid := range escapeePIDs(t, dir) {
		require.False(t, running(pid), "pid %d outlived its stopped run", pid)
	}
}

// escapeesHelperEnv, when set, makes TestHelperRunsEscapees a child process
// of TestParentKill9TakesEscapeesDown instead of a test.
const escapeesHelperEnv = "PROC_TEST_ESCAPEES_DIR"

// TestHelperRunsEscapees is not a test of its own: run as a separate
// process by TestParentKill9TakesEscapeesDown, it supervises a shell whose
// children leave its group, and waits to be killed.
func TestHelperRunsEscapees(t *testing.T) {
	dir := os.Getenv(escapeesHelperEnv)
	if dir == "" {
		t.Skip("a helper process of TestParentKill9TakesEscapeesDown")
	}
	Run(context.Background(), Spec{Shell: escapeesShell(dir, true)})
}

// kill -9 of the supervisor takes down the processes that left the group
// too: the guard finds them by their marker.
func TestParentKill9TakesEscapeesDown(t *testing.T) {
	requireProcFS(t)
	dir := t.TempDir()
	helper := exec.Command(os.Args[0], "-test.run=^TestHelperRunsEscapees$")
	helper.Env = append(os.Environ(), escapeesHelperEnv+"="+dir)
	var out bytes.Buffer
	helper.Stdout, helper.Stderr = &out, &out
	require.NoError(t, helper.Start())
	require.Eventually(t, func() bool {
		_, err := os.Stat(filepath.Join(dir, "ready"))
		return err == nil
	}, 30*time.Second, 10*time.Millisecond, "the helper never started its escapees: %s", &out)
	pids := escapeePIDs(t, dir)
	for _, pid := range pids {
		require.True(t, running(pid))
	}
	require.NoError(t, helper.Process.Signal(syscall.SIGKILL))
	_ = helper.Wait()
	require.Eventually(t, func() bool {
		for _, pid := range pids {
			if running(pid) {
				return false
			}
		}
		return true
	}, 30*time.Second, 10*time.Millisecond, "escapees %v outlived their supervisor", pids)
}

// BenchmarkMarkedScan measures the /proc scan every supervised run ends
// with.
func BenchmarkMarkedScan(b *testing.B) {
	m := newMarker()
	for b.Loop() {
		markedPIDs(m)
	}
}
