package failreport

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A budget reached is not retried: a retry would spend more.
func TestBudgetExceededIsNotRetried(t *testing.T) {
	t.Parallel()
	require.False(t, BudgetExceeded.Retryable())
	require.Equal(t, Type("budget_exceeded"), BudgetExceeded)
}
