package runctl

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The first Ctrl-C (or SIGTERM) halts gracefully: the run's context ends;
// the second is the hard stop that kills every running phase at once.
//
// Not parallel: the signals go to the whole test process, and a parallel
// test running the engine would take them as its own.
func TestInterruptsFirstHaltsSecondKills(t *testing.T) {
	ctx, hard, stop := Interrupts(context.Background(), io.Discard)
	defer stop()

	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGINT))
	select {
	case <-ctx.Done():
	case <-time.After(time.Minute):
		t.Fatal("the first SIGINT did not end the run's context")
	}
	select {
	case <-hard:
		t.Fatal("one signal was taken for two")
	default:
	}

	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGTERM))
	select {
	case <-hard:
	case <-time.After(time.Minute):
		t.Fatal("the second signal did not kill the phases")
	}
}

// A SIGHUP the process was started ignoring (nohup autobuild … &) stays
// ignored: the terminal closing does not halt the run. signal.Notify took
// it back, and a nohup'd run was interrupted when its terminal closed.
//
// Not parallel, as above.
func TestInterruptsLeaveAnIgnoredHangUpIgnored(t *testing.T) {
	if !signal.Ignored(syscall.SIGHUP) {
		signal.Ignore(syscall.SIGHUP)
		defer signal.Reset(syscall.SIGHUP)
	}
	ctx, hard, stop := Interrupts(context.Background(), io.Discard)
	defer stop()
	require.True(t, signal.Ignored(syscall.SIGHUP), "SIGHUP is still ignored")

	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGHUP))
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGTERM))
	select {
	case <-ctx.Done():
	case <-time.After(time.Minute):
		t.Fatal("SIGTERM did not end the run's context")
	}
	select {
	case <-hard:
		t.Fatal("the ignored SIGHUP was taken as a first interrupt")
	default:
	}
}
