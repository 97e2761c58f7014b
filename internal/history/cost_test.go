package history

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/state"
)

// The report's cost counts a CLI that reports tokens but no cost at the
// rate table's price, and the CLI's own cost where it reports one.
func TestRecordCostPricesTokens(t *testing.T) {
	t.Parallel()
	require.InDelta(t, 1.25, Record{Usage: &state.Usage{Model: "gpt-5-codex", InputTokens: 1_000_000}}.CostUSD(), 1e-9)
	require.InDelta(t, 0.3, Record{Usage: &state.Usage{Model: "gpt-5", InputTokens: 1_000_000, CostUSD: 0.3}}.CostUSD(), 1e-9)
	require.Zero(t, Record{}.CostUSD())
}
