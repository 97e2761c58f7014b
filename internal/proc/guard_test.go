package proc

import (
	"bytes"
	"context"
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
)

// helperPIDsEnv, when set, makes TestHelperRunsAFamily a child process of
// TestParentKill9TakesTheWholeGroupDown instead of a test.
const helperPIDsEnv = "PROC_TEST_HELPER_PIDS"

// TestHelperRunsAFamily is not a test of its own: run as a separate process
// by TestParentKill9TakesTheWholeGroupDown, it supervises a shell that starts
// a grandchild, and waits to be killed.
func TestHelperRunsAFamily(t *testing.T) {
	dir := os.Getenv(helperPIDsEnv)
	if dir == "" {
		t.Skip("a helper process of TestParentKill9TakesTheWholeGroupDown")
	}
	Run(context.Background(), Spec{
		Shell: "echo $$ > " + dir + "/child.tmp && mv " + dir + "/child.tmp " + dir + "/child; " +
			"sleep 300 & echo $! > " + dir + "/grandchild.tmp && mv " + dir + "/grandchild.tmp " + dir + "/grandchild; wait",
	})
}

// kill -9 of the supervising process takes down the child and the child's
// own children: the parent-death signal reaches only the child, the group's
// guard the rest.
func TestParentKill9TakesTheWholeGroupDown(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc to tell a zombie from a live process")
	}
	dir := t.TempDir()
	helper := exec.Command(os.Args[0], "-test.run=^TestHelperRunsAFamily$")
	helper.Env = append(os.Environ(), helperPIDsEnv+"="+dir)
	var out bytes.Buffer
	helper.Stdout, helper.Stderr = &out, &out
	require.NoError(t, helper.Start())
	pidOf := func(name string) int {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return 0
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		return pid
	}
	require.Eventually(t, func() bool { return pidOf("child") > 0 && pidOf("grandchild") > 0 },
		30*time.Second, 10*time.Millisecond, "the helper never started its family: %s", &out)
	child, grandchild := pidOf("child"), pidOf("grandchild")
	require.True(t, running(child) && running(grandchild))

	require.NoError(t, helper.Process.Signal(syscall.SIGKILL))
	_ = helper.Wait()
	require.Eventually(t, func() bool { return !running(child) && !running(grandchild) },
		30*time.Second, 10*time.Millisecond, "child %d or grandchild %d outlived its supervisor", child, grandchild)
}

// A stop reaches the child through the group the guard leads, and the guard
// goes with the group: nothing of the run is left.
func TestGuardLeavesNothingBehind(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc to list processes")
	}
	before := guards(t)
	res := Run(context.Background(), Spec{Shell: "sleep 300", Timeout: 50 * time.Millisecond, Grace: time.Minute})
	require.True(t, res.TimedOut)
	require.Equal(t, before, guards(t), "every guard this process started is gone")
}

// guards lists the live guard processes whose parent is this process.
func guards(t *testing.T) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	require.NoError(t, err)
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if len(fields) > 1 && fields[0] != "Z" && fields[1] == strconv.Itoa(os.Getpid()) &&
			strings.HasPrefix(string(cmdline), guardName+"\x00") {
			out = append(out, pid)
		}
	}
	return out
}

// running reports whether pid is a live process (not gone, not a zombie
// waiting for a parent that does not reap it).
func running(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}
