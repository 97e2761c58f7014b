package proc

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Finish ends a process whose work is done though it keeps running (an
// ACP agent): the group is stopped and the result is a success.
func TestFinishStopsTheGroupAsASuccess(t *testing.T) {
	finish := make(chan struct{})
	time.AfterFunc(200*time.Millisecond, func() { close(finish) })
	called := atomic.Bool{}
	res := Run(context.Background(), Spec{Shell: "sleep 30", Finish: finish, Grace: time.Second,
		BeforeStop: func() { called.Store(true) }})
	assert.True(t, res.Finished)
	assert.Equal(t, 0, res.ExitCode)
	assert.False(t, res.Canceled || res.Signaled)
	assert.False(t, called.Load(), "Finish is no stop to prepare for")
	assert.Less(t, res.Duration, 5*time.Second)
}

// BeforeStop runs before the SIGTERM of a cancel (the process is still
// there to be told), and a hard stop meanwhile kills at once.
func TestBeforeStopRunsFirstAndAHardStopDoesNotWait(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "alive")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	var sawAlive atomic.Bool
	res := Run(ctx, Spec{Shell: "touch " + marker + "; trap 'rm -f " + marker + "; exit 0' TERM; sleep 30 & wait", Grace: time.Second,
		BeforeStop: func() {
			_, err := os.Stat(marker)
			sawAlive.Store(err == nil)
		}})
	assert.True(t, res.Canceled)
	assert.True(t, sawAlive.Load(), "BeforeStop ran before the SIGTERM")

	hard := make(chan struct{})
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	time.AfterFunc(400*time.Millisecond, func() { close(hard) })
	start := time.Now()
	res = Run(ctx, Spec{Shell: "sleep 30", Grace: 10 * time.Second, HardStop: hard,
		BeforeStop: func() { time.Sleep(5 * time.Second) }})
	require.True(t, res.Canceled)
	assert.Less(t, time.Since(start), 3*time.Second, "the hard stop did not wait for BeforeStop")
}
