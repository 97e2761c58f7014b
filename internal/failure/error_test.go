package failure

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestError(t *testing.T) {
	t.Parallel()
	err := fmt.Errorf("phase 2a: %w", &Error{Report: Report{Type: Timeout, Message: "timed out after 30m0s"}, Err: io.EOF})
	var fe *Error
	require.True(t, errors.As(err, &fe))
	require.Equal(t, Timeout, fe.Report.Type)
	require.ErrorIs(t, err, io.EOF)
	require.Equal(t, "phase 2a: timeout: timed out after 30m0s", err.Error())

	require.Equal(t, "agent_error: EOF", (&Error{Report: Report{Type: AgentError}, Err: io.EOF}).Error())
	require.Equal(t, "EOF", (&Error{Err: io.EOF}).Error())
}

func TestTypeRetry(t *testing.T) {
	t.Parallel()
	nonRetryable := map[Type]bool{DependencyMissing: true, CircularDependency: true, FileConflict: true, PlanInvalid: true, AgentSetup: true}
	for _, typ := range allTypes {
		require.Equal(t, !nonRetryable[typ], typ.Retryable(), string(typ))
		require.Equal(t, typ != RateLimited, typ.ConsumesRetry(), string(typ))
	}
}

// The repository's own troubles are never retried: a retry would land on
// the wrong branch, over another run's state or on a full disk.
func TestRepositoryTypesAreNotRetried(t *testing.T) {
	t.Parallel()
	for _, typ := range []Type{BranchChanged, LockLost, DiskFull} {
		require.False(t, typ.Retryable(), string(typ))
	}
}
