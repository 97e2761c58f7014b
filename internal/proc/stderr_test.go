package proc

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With OnStderrLine, stderr never mixes into stdout: an agent CLI's echo
// of its prompt on stderr must not be read as its answer.
func TestRunKeepsStderrApart(t *testing.T) {
	var out, errb bytes.Buffer
	var mu sync.Mutex
	var outLines, errLines []string
	res := Run(context.Background(), Spec{
		Shell:        "echo one; echo echoed >&2; echo two; echo warn >&2",
		Output:       &out,
		StderrOutput: &errb,
		OnLine:       func(l string) { mu.Lock(); outLines = append(outLines, l); mu.Unlock() },
		OnStderrLine: func(l string) { mu.Lock(); errLines = append(errLines, l); mu.Unlock() },
	})
	require.NoError(t, res.Err)
	assert.Equal(t, []string{"one", "two"}, outLines)
	assert.Equal(t, []string{"echoed", "warn"}, errLines)
	assert.Equal(t, "one\ntwo\n", res.Tail)
	assert.Equal(t, "echoed\nwarn\n", res.StderrTail)
	assert.Equal(t, "one\ntwo\n", out.String())
	assert.Equal(t, "echoed\nwarn\n", errb.String())
}

// Abort stops the process group like a timeout, and says so.
func TestRunAbort(t *testing.T) {
	abort := make(chan struct{})
	started := make(chan struct{})
	var once sync.Once
	res := Run(context.Background(), Spec{
		Shell:  "echo ready; sleep 30",
		Abort:  abort,
		Grace:  time.Second,
		OnLine: func(string) { once.Do(func() { close(started); close(abort) }) },
	})
	<-started
	assert.True(t, res.Aborted)
	assert.False(t, res.Canceled, "an abort is not an interrupt")
	assert.False(t, res.TimedOut)
	assert.Less(t, res.Duration, 10*time.Second)
}

// A stderr that keeps printing keeps an agent from being idle-killed. The
// run lasts twice the idle timeout, with ticks far apart enough inside it
// that a loaded machine's late wake-up does not look idle.
func TestRunIdleCountsStderr(t *testing.T) {
	res := Run(context.Background(), Spec{
		Shell:        "for i in 1 2 3 4 5 6 7 8 9 10 11 12; do echo tick >&2; sleep 0.25; done",
		IdleTimeout:  1500 * time.Millisecond,
		OnStderrLine: func(string) {},
	})
	assert.False(t, res.IdleTimedOut)
	assert.Equal(t, 0, res.ExitCode)
}
