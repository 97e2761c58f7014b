package budget

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/state"
)

func TestPriceTakesTheCLIsCostThenTheRateTable(t *testing.T) {
	t.Parallel()
	usd, ok := Price(&state.Usage{Model: "claude-sonnet-4-5", InputTokens: 1_000_000, CostUSD: 0.42})
	require.True(t, ok)
	require.InDelta(t, 0.42, usd, 1e-9, "the CLI's own cost wins")

	usd, ok = Price(&state.Usage{Model: "gpt-5-codex", InputTokens: 1_000_000, OutputTokens: 100_000, CacheReadTokens: 2_000_000})
	require.True(t, ok)
	require.InDelta(t, 1.25+1.0+0.25, usd, 1e-9, "gpt-5 rates, by prefix")

	usd, ok = Price(&state.Usage{Model: "gpt-5-mini-2025", OutputTokens: 1_000_000})
	require.True(t, ok)
	require.InDelta(t, 2.0, usd, 1e-9, "the longest prefix wins")

	_, ok = Price(&state.Usage{Model: "local-llama", InputTokens: 10})
	require.False(t, ok, "a model not in the table is unpriced")
	_, ok = Price(nil)
	require.False(t, ok, "no usage at all is unpriced")
	usd, ok = Price(&state.Usage{Model: "local-llama"})
	require.True(t, ok, "no tokens spent is nothing spent")
	require.Zero(t, usd)
}

func TestOfSumsPhasesAndNamesUnpricedAgents(t *testing.T) {
	t.Parallel()
	phases := []*state.Phase{
		{PhaseID: "1", DisplayID: "1", Attempts: []state.Attempt{
			{Agent: "claude", Outcome: state.OutcomeFailed, Usage: &state.Usage{CostUSD: 1.5}},
			{Agent: "claude", Outcome: state.OutcomeComplete, Usage: &state.Usage{CostUSD: 0.5}},
		}},
		{PhaseID: "2a", DisplayID: "2-A", Attempts: []state.Attempt{
			{Agent: "my-script", Outcome: state.OutcomeComplete},
			{Agent: "my-script", Outcome: state.OutcomeComplete},
		}},
		{PhaseID: "3", DisplayID: "3", Attempts: []state.Attempt{{Agent: "codex", Outcome: state.OutcomeInterrupted}}},
	}
	s := Of(phases)
	require.InDelta(t, 2.0, s.USD, 1e-9)
	require.Len(t, s.Phases, 1)
	require.Equal(t, []string{"my-script"}, s.Unpriced, "named once; an interrupted attempt had no chance to report")
	l := Limits{Run: 2}
	require.True(t, l.RunReached(s))
	require.False(t, Limits{Run: 2.5}.RunReached(s))
	require.False(t, Limits{}.RunReached(s), "no budget is never reached")
	require.True(t, Limits{Phase: 2}.PhaseReached(PhaseUSD(phases[0])))

	rep := Report(l, s, "", 0)
	require.Equal(t, failreport.BudgetExceeded, rep.Type)
	require.False(t, rep.Retryable)
	require.Contains(t, rep.Message, "spent $2.00, reaching its budget of $2.00")
	require.Contains(t, rep.Details, "1: $2.00")
	require.Contains(t, rep.Details, "my-script")
}

func TestHigherOffersMoreThanWasSpent(t *testing.T) {
	t.Parallel()
	require.Equal(t, 10.0, Higher(5, 5.2))
	require.Equal(t, 15.0, Higher(5, 9.5))
	require.Equal(t, 0.5, Higher(0.25, 0.26))
	require.Equal(t, "2.5", Amount(2.5))
	require.Equal(t, "10", Amount(10))
}
