package tui

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The plan's warnings are on the first screen, before any phase starts, and
// go with the first key.
func TestPlanWarningsShownFromTheStart(t *testing.T) {
	t.Parallel()
	o := liveOptions(&fakeController{})
	o.Notice = "Plan warning: plan.md:7: warning: section \"Phase 6\" is not in the phase table"
	h := newHarness(t, o, 80, 24)
	require.Contains(t, h.screen(), "Plan warning: plan.md:7: warning: section")
	h.key("down")
	require.NotContains(t, h.screen(), "Plan warning")
}
