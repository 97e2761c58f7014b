package failure

import (
	"testing"

	"github.com/stretchr/testify/require"
)

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
