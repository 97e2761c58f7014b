package failure

import (
	"testing"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/stretchr/testify/require"
)

func TestTypeRetry(t *testing.T) {
	t.Parallel()
	nonRetryable := map[failreport.Type]bool{failreport.DependencyMissing: true, failreport.CircularDependency: true, failreport.FileConflict: true, failreport.PlanInvalid: true, failreport.AgentSetup: true}
	for _, typ := range allTypes {
		require.Equal(t, !nonRetryable[typ], typ.Retryable(), string(typ))
		require.Equal(t, typ != failreport.RateLimited, typ.ConsumesRetry(), string(typ))
	}
}

// The repository's own troubles are never retried: a retry would land on
// the wrong branch, over another run's state or on a full disk.
func TestRepositoryTypesAreNotRetried(t *testing.T) {
	t.Parallel()
	for _, typ := range []failreport.Type{failreport.BranchChanged, failreport.LockLost, failreport.DiskFull, failreport.RedBase} {
		require.False(t, typ.Retryable(), string(typ))
	}
}
