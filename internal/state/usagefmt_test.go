package state

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Nothing spent reads "$0.00" (a budget's "$0.00 of $5.00"), not
// "$0.0000"; a fraction of a cent keeps its digits.
func TestCost(t *testing.T) {
	t.Parallel()
	require.Equal(t, "$0.00", Cost(0))
	require.Equal(t, "$0.0042", Cost(0.0042))
	require.Equal(t, "$1.25", Cost(1.25))
}
