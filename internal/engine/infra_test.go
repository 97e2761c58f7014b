package engine

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/schedule"
)

// A full disk under autobuild's own work is disk_full with its cause, not a
// retryable agent_error.
func TestDiskFullIsNamed(t *testing.T) {
	t.Parallel()
	for _, err := range []error{
		fmt.Errorf("creating the attempt log: %w", &os.PathError{Op: "open", Path: "x.log", Err: syscall.ENOSPC}),
		errors.New("creating the worktree of phase 1: git worktree add: exit status 128: fatal: could not write index: No space left on device"),
		// An executor's fault, as data (from another machine): the system
		// error's own words are lower case.
		executor.FaultOf(fmt.Errorf("writing the prompt: %w", &os.PathError{Op: "write", Path: "p.md", Err: syscall.ENOSPC})),
	} {
		rep := infraFailure(schedule.AttemptRequest{Number: 1}, err)
		require.Equal(t, failreport.DiskFull, rep.Type, "%v", err)
		require.False(t, rep.Retryable)
		require.Contains(t, rep.Message, "the disk is full")
		require.Contains(t, rep.Message, err.Error(), "the cause stays")
	}
	rep := infraFailure(schedule.AttemptRequest{Number: 1}, errors.New("git worktree add: exit status 128: fatal: bad object"))
	require.Equal(t, failreport.AgentError, rep.Type)
}
