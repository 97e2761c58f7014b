package state

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPlanFileOpensWhatRunJSONRecords(t *testing.T) {
	require.Equal(t, "/repo/docs/plan.md", PlanFile("/repo", "docs/plan.md"))
	require.Equal(t, "/elsewhere/plan.md", PlanFile("/repo", "/elsewhere/plan.md"))
}
