package tui

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
)

// A remote run says which worker makes a phase's attempt: the row's agent
// names it, and the next attempt starts without it until its worker is
// known.
func TestPhaseWorkerShowsOnTheRow(t *testing.T) {
	t.Parallel()
	h := newHarness(t, liveOptions(&fakeController{}), 120, 30)
	h.feed([]event.Event{
		{Kind: event.PhaseStarted, Time: t0, PhaseID: "1", DisplayID: "1", Attempt: 1, MaxAttempts: 2, Agent: "sim"},
		{Kind: event.PhaseWorker, Time: t0, PhaseID: "1", DisplayID: "1", Attempt: 1, Line: "build-7:4242"},
	})
	require.Equal(t, "sim @ build-7:4242", h.m.phases.byID["1"].agent)
	h.feed([]event.Event{{Kind: event.PhaseWorker, Time: t0, PhaseID: "1", DisplayID: "1", Attempt: 1, Line: "build-8:1"}})
	require.Equal(t, "sim @ build-8:1", h.m.phases.byID["1"].agent, "another worker took it over")
	h.feed([]event.Event{{Kind: event.PhaseStarted, Time: t0, PhaseID: "1", DisplayID: "1", Attempt: 2, MaxAttempts: 2, Agent: "sim"}})
	require.Equal(t, "sim", h.m.phases.byID["1"].agent)
}
