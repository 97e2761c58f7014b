package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/state"
)

// status shows the tokens and cost the agents reported: the run's total,
// and each phase's over its attempts; --json adds the run's total.
func TestMainStatusUsage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, ".git"), 0o755))
	snap := sampleSnapshot()
	for _, p := range snap.Phases {
		if p.Status == state.PhaseComplete || p.Status == state.PhaseFailed {
			p.Attempts = append(p.Attempts, state.Attempt{Number: 1, Agent: "claude",
				Usage: &state.Usage{InputTokens: 1000, OutputTokens: 200, CostUSD: 0.05, Turns: 3}})
		}
	}
	store := state.Open(dir)
	require.NoError(t, store.SaveRun(snap.Run))
	attempts := 0
	for _, p := range snap.Phases {
		require.NoError(t, store.SavePhase(p))
		attempts += len(p.Attempts)
	}
	require.Positive(t, attempts, "the sample has attempts")
	total := &state.Usage{InputTokens: int64(1000 * attempts), OutputTokens: int64(200 * attempts), CostUSD: 0.05 * float64(attempts), Turns: 3 * attempts}

	code, out, errOut := run(t, "status", dir)
	require.Equal(t, statusExitCode(snap.Run), code, errOut)
	require.Contains(t, out, "Usage: "+total.Summary()+"\n")
	require.Contains(t, out, "TOKENS")
	require.Contains(t, out, "1k/200")

	code, out, errOut = run(t, "status", "--json", dir)
	require.Equal(t, statusExitCode(snap.Run), code, errOut)
	var got struct {
		Usage *state.Usage `json:"usage"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.NotNil(t, got.Usage)
	require.Equal(t, total.InputTokens, got.Usage.InputTokens)
	require.InDelta(t, total.CostUSD, got.Usage.CostUSD, 1e-9)
}
