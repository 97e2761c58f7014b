package proc

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRunCapturesOutputInOrder(t *testing.T) {
	var out bytes.Buffer
	var mu sync.Mutex
	var lines []string
	res := Run(context.Background(), Spec{
		Shell:  "echo one; echo two >&2; printf 'three\\r\\nfour'",
		Output: &out,
		OnLine: func(l string) { mu.Lock(); lines = append(lines, l); mu.Unlock() },
	})
	require.NoError(t, res.Err)
	assert.Equal(t, 0, res.ExitCode)
	assert.Equal(t, []string{"one", "two", "three", "four"}, lines)
	assert.Equal(t, "one\ntwo\nthree\r\nfour", out.String())
	assert.Equal(t, out.String(), res.Tail)
}

func TestRunExitCodeEnvDirStdin(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	res := Run(context.Background(), Spec{
		Args:   []string{"sh", "-c", `pwd; echo "$AB_TEST"; cat; exit 3`},
		Dir:    dir,
		Env:    []string{"AB_TEST=hello"},
		Stdin:  strings.NewReader("from stdin\n"),
		Output: &out,
	})
	assert.Equal(t, 3, res.ExitCode)
	assert.False(t, res.NotFound)
	real, _ := filepath.EvalSymlinks(dir)
	assert.Equal(t, real+"\nhello\nfrom stdin\n", out.String())
}

func TestRunNotFound(t *testing.T) {
	res := Run(context.Background(), Spec{Args: []string{"autobuild-no-such-agent-xyz"}})
	assert.True(t, res.NotFound)
	assert.Equal(t, 127, res.ExitCode)
	require.Error(t, res.Err)
	assert.Contains(t, res.Err.Error(), "autobuild-no-such-agent-xyz")

	res = Run(context.Background(), Spec{Shell: "autobuild-no-such-gate-xyz"})
	assert.True(t, res.NotFound)
	assert.Equal(t, 127, res.ExitCode)
}

func TestRunIgnoresUnreadStdin(t *testing.T) {
	big := strings.Repeat("x", 1<<20) // larger than a pipe buffer
	res := Run(context.Background(), Spec{Shell: "exit 0", Stdin: strings.NewReader(big)})
	assert.Equal(t, 0, res.ExitCode)
	assert.NoError(t, res.Err)
	assert.Less(t, res.Duration, 5*time.Second)
}

func TestRunTimeoutTerminatesGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	res := Run(context.Background(), Spec{
		Shell:   "sleep 30 & echo $! > " + pidFile + "; wait",
		Timeout: 200 * time.Millisecond,
		Grace:   time.Second,
	})
	assert.True(t, res.TimedOut)
	assert.False(t, res.Canceled)
	assert.Less(t, res.Duration, 5*time.Second)
	assertGone(t, pidFile)
}

func TestRunGraceThenKill(t *testing.T) {
	// The shell ignores SIGTERM, so only the SIGKILL after the grace ends it.
	res := Run(context.Background(), Spec{
		Shell:   "trap '' TERM; echo ready; while :; do sleep 0.05; done",
		Timeout: 100 * time.Millisecond,
		Grace:   300 * time.Millisecond,
	})
	assert.True(t, res.TimedOut)
	assert.True(t, res.Signaled)
	assert.GreaterOrEqual(t, res.Duration, 400*time.Millisecond)
	assert.Less(t, res.Duration, 5*time.Second)
}

func TestRunIdleTimeout(t *testing.T) {
	res := Run(context.Background(), Spec{
		Shell:       "echo start; sleep 30",
		IdleTimeout: 200 * time.Millisecond,
		Grace:       time.Second,
	})
	assert.True(t, res.IdleTimedOut)
	assert.False(t, res.TimedOut)
	assert.Contains(t, res.Tail, "start")
}

func TestRunOutputKeepsIdleTimerAlive(t *testing.T) {
	res := Run(context.Background(), Spec{
		Shell:       "for i in 1 2 3 4 5 6; do echo $i; sleep 0.1; done",
		IdleTimeout: 400 * time.Millisecond,
	})
	assert.False(t, res.IdleTimedOut)
	assert.Equal(t, 0, res.ExitCode)
}

func TestRunCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(150*time.Millisecond, cancel)
	res := Run(ctx, Spec{Shell: "sleep 30", Grace: time.Second})
	assert.True(t, res.Canceled)
	assert.False(t, res.TimedOut)
	assert.Less(t, res.Duration, 5*time.Second)

	res = Run(ctx, Spec{Shell: "echo never"})
	assert.True(t, res.Canceled)
}

func TestRunHardStopSkipsGrace(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	hard := make(chan struct{})
	time.AfterFunc(100*time.Millisecond, cancel)
	time.AfterFunc(200*time.Millisecond, func() { close(hard) })
	res := Run(ctx, Spec{Shell: "trap '' TERM; while :; do sleep 0.05; done", Grace: time.Minute, HardStop: hard})
	assert.True(t, res.Canceled)
	assert.Less(t, res.Duration, 10*time.Second)
}

func TestRunKillsLeftoversAfterLeaderExits(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	res := Run(context.Background(), Spec{Shell: "sleep 30 >/dev/null 2>&1 & echo $! > " + pidFile})
	assert.Equal(t, 0, res.ExitCode)
	assert.Less(t, res.Duration, 5*time.Second)
	assertGone(t, pidFile)
}

func TestRunDetachedDescendantDoesNotHang(t *testing.T) {
	if _, err := os.Stat("/usr/bin/setsid"); err != nil {
		t.Skip("setsid not available")
	}
	res := Run(context.Background(), Spec{Shell: "setsid sleep 5 & echo done"})
	assert.Equal(t, 0, res.ExitCode)
	assert.Less(t, res.Duration, 4*time.Second)
	assert.Contains(t, res.Tail, "done")
}

func TestRunTailKeepsLastBytes(t *testing.T) {
	res := Run(context.Background(), Spec{Shell: "head -c 100000 /dev/zero | tr '\\0' a; echo; echo THE-END"})
	assert.Equal(t, 0, res.ExitCode)
	assert.Len(t, res.Tail, TailSize)
	assert.True(t, strings.HasSuffix(res.Tail, "THE-END\n"))
}

func TestRunLongLineIsSplit(t *testing.T) {
	var n int
	res := Run(context.Background(), Spec{
		Shell:  "head -c 20000 /dev/zero | tr '\\0' a",
		OnLine: func(l string) { n++; assert.LessOrEqual(t, len(l), maxLine) },
	})
	assert.Equal(t, 0, res.ExitCode)
	assert.GreaterOrEqual(t, n, 2)
}

func TestRunSignaled(t *testing.T) {
	res := Run(context.Background(), Spec{Shell: "kill -9 $$"})
	assert.True(t, res.Signaled)
	assert.Equal(t, -1, res.ExitCode)
}

// assertGone checks that the pid written to pidFile no longer runs.
func assertGone(t *testing.T, pidFile string) {
	t.Helper()
	data, err := os.ReadFile(pidFile)
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	require.NoError(t, err)
	assert.Eventually(t, func() bool {
		return syscall.Kill(pid, 0) != nil
	}, 3*time.Second, 20*time.Millisecond, "process %d survived", pid)
}

func BenchmarkRunTrue(b *testing.B) {
	for b.Loop() {
		if res := Run(context.Background(), Spec{Args: []string{"true"}}); res.ExitCode != 0 {
			b.Fatal(res)
		}
	}
}
