package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// status carries the run's budget: the Budget line, and "budget" in
// --json with the limits, the spend per phase and whether it is reached.
func TestMainStatusBudget(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, ".git"), 0o755))
	snap := sampleSnapshot()
	snap.Run.MaxCostUSD = 0.05
	n := 0
	for _, p := range snap.Phases {
		if p.Status == state.PhaseComplete {
			p.Attempts = append(p.Attempts, state.Attempt{Number: 1, Agent: "claude", Outcome: state.OutcomeComplete,
				Usage: &state.Usage{InputTokens: 1000, CostUSD: 0.05}})
			n++
		}
	}
	require.Positive(t, n, "the sample has a complete phase")
	store := state.Open(dir)
	require.NoError(t, store.SaveRun(snap.Run))
	for _, p := range snap.Phases {
		require.NoError(t, store.SavePhase(p))
	}
	_, out, _ := run(t, "status", dir)
	require.Contains(t, out, "Budget: "+state.Cost(0.05*float64(n))+" of $0.05 (reached)\n")

	// Halted by it, the run is continued with a higher budget.
	snap.Run.Status, snap.Run.HaltType = state.RunHalted, failreport.BudgetExceeded
	require.NoError(t, store.SaveRun(snap.Run))
	_, out, _ = run(t, "status", dir)
	require.Contains(t, out, "--max-cost 0.1 --resume (complete phases stay complete)")

	_, out, _ = run(t, "status", "--json", dir)
	var got struct {
		Budget struct {
			MaxCostUSD float64 `json:"max_cost_usd"`
			SpentUSD   float64 `json:"spent_usd"`
			Reached    bool    `json:"reached"`
			Phases     []struct {
				PhaseID string  `json:"phase_id"`
				USD     float64 `json:"usd"`
			} `json:"phases"`
		} `json:"budget"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.Equal(t, 0.05, got.Budget.MaxCostUSD)
	require.InDelta(t, 0.05*float64(n), got.Budget.SpentUSD, 1e-9)
	require.True(t, got.Budget.Reached)
	require.Len(t, got.Budget.Phases, n)
}
