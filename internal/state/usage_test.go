package state

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestUsageAdd(t *testing.T) {
	t.Parallel()
	var none *Usage
	require.Nil(t, none.Add(nil))
	a := &Usage{Model: "m", InputTokens: 10, OutputTokens: 2, CacheReadTokens: 5, Turns: 1, CostUSD: 0.25}
	require.Equal(t, a, none.Add(a))
	require.Equal(t, &Usage{Model: "m", InputTokens: 20, OutputTokens: 4, CacheReadTokens: 10, Turns: 2, CostUSD: 0.5}, a.Add(a))
	require.Equal(t, "", a.Add(&Usage{Model: "other"}).Model, "two models: none is named")
}
