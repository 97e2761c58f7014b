package tui

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
)

// A phase whose change is verified on top of what landed meanwhile says
// so in its row.
func TestVerifyingPhaseSaysWithWhat(t *testing.T) {
	t.Parallel()
	h := newHarness(t, liveOptions(&fakeController{}), 120, 24)
	h.feed(midRun())
	v := ev(event.PhaseVerifying, "2a", 192)
	v.Line = "on top of 2B, 2C"
	h.feed([]event.Event{v})
	require.Contains(t, h.screen(), "verifying with 2B, 2C")
}
