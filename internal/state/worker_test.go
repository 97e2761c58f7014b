package state

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPhaseWorkerIsTheLatestAttempts(t *testing.T) {
	t.Parallel()
	p := &Phase{}
	require.Empty(t, p.Worker(), "not tried yet")
	p.Attempts = []Attempt{{Number: 1, Worker: "w1"}}
	require.Equal(t, "w1", p.Worker())
	p.Attempts = append(p.Attempts, Attempt{Number: 2})
	require.Empty(t, p.Worker(), "the retry's worker is not known yet")
}
