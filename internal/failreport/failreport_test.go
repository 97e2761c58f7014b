package failreport

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// The report is written into every phase file: its keys are part of the
// state files' contract (docs/state.md) and must not drift.
func TestReportJSONKeys(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(Report{Type: AgentSetup, Message: "not logged in", Retryable: AgentSetup.Retryable(),
		Attempt: 1, Fix: "claude /login", UsageLimit: true})
	require.NoError(t, err)
	require.JSONEq(t, `{"type":"agent_setup","message":"not logged in","duration_seconds":0,"retryable":false,
		"attempt":1,"fix":"claude /login","usage_limit":true}`, string(b))
}

func TestOnlyRateLimitsKeepTheRetry(t *testing.T) {
	t.Parallel()
	require.False(t, RateLimited.ConsumesRetry())
	require.True(t, RateLimited.Retryable())
	require.True(t, TestFailure.ConsumesRetry())
	require.False(t, DiskFull.Retryable())
}
