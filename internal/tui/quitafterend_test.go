package tui

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// Between the run's terminal event and its events closing (the engine's
// listeners still finishing, a notifier posting the halt), the run has
// nothing left to halt: q and ctrl+c quit at once, without asking "Halt
// the run and quit?" and without interrupting it.
func TestQuitAfterTheRunReportedItsEnd(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		end    []event.Event
		status state.RunStatus
		key    string
	}{
		{"halted, q", haltEnd(), state.RunHalted, "q"},
		{"halted, ctrl+c", haltEnd(), state.RunHalted, "ctrl+c"},
		{"complete, q", completeEnd(), state.RunComplete, "q"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			fake := &fakeController{}
			h := newHarness(t, liveOptions(fake), 100, 30)
			h.send(startedMsg{gen: h.m.life.gen, ch: make(chan event.Event)})
			h.feed(midRun())
			h.feed(c.end) // the terminal event, without the channel closing
			h.send(snapshotMsg{gen: h.m.life.gen, snap: snapshotOf(h.m, c.status, "Phase 2B failed twice")})
			require.Equal(t, lifeRunning, h.m.life.state, "the run's events have not closed")
			require.Equal(t, screenSummary, h.m.screen, "the summary is up")

			h.key(c.key)
			require.Nil(t, h.m.dialog, "a run that has ended is not offered a halt")
			require.NotContains(t, h.screen(), "Halt the run")
			h.until("quit", func(*Model) bool { return h.quit })
			_, interrupts := fake.counts()
			require.Zero(t, interrupts, "nothing to interrupt")
		})
	}
}

// While r restarts a halted run, the old run's status is still shown, but
// the run being started is one to halt: q asks.
func TestQuitWhileRestartingAsks(t *testing.T) {
	t.Parallel()
	h := haltedRun(t)
	h.key("r")
	require.Equal(t, lifeRestarting, h.m.life.state)
	require.Equal(t, state.RunHalted, h.m.run.status, "the old run's status until the new one starts")
	h.key("q")
	require.NotNil(t, h.m.dialog)
	require.Equal(t, "Halt the run and quit? y/n", h.m.dialog.prompt)
	require.False(t, h.quit)
}
