package tui

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/watch"
)

// A phase written "2-A" has the id "2a": the rows are keyed by the id the
// events carry, never by a guess from the display id, so a phase the plan
// did not list and that never started is one row, not two, once the state
// files are merged in.
func TestRowsKeyedByRealIDNotAGuess(t *testing.T) {
	t.Parallel()
	o := liveOptions(&fakeController{})
	o.Batches = nil // the TUI was not told the plan: the events name the phases
	h := newHarness(t, o, 100, 30)
	h.feed([]event.Event{
		{Kind: event.RunStarted, Time: t0},
		{Kind: event.BatchStarted, Time: t0, Batch: 1, Phases: []phaseid.Display{"1", "2-A"}, PhaseIDs: []phaseid.ID{"1", "2a"}},
		{Kind: event.PhaseStarted, Time: t0, PhaseID: "1", DisplayID: "1", Attempt: 1, MaxAttempts: 2},
	})
	require.Len(t, h.m.phases.rows, 2)
	r := h.m.phases.byID["2a"]
	require.NotNil(t, r, "the row of 2-A is keyed by its id")
	require.Equal(t, phaseid.Display("2-A"), r.displayID)

	snap := &state.Snapshot{Run: &state.Run{Status: state.RunHalted, Started: t0},
		Phases: []*state.Phase{
			{PhaseID: "1", DisplayID: "1", Status: state.PhaseFailed, Batch: 1},
			{PhaseID: "2a", DisplayID: "2-A", Status: state.PhasePending, Batch: 1},
		}}
	h.m.mergeSnapshot(snap)
	require.Len(t, h.m.phases.rows, 2, "the snapshot's 2a is the same row")
	require.Contains(t, h.screen(), "2-A")
}

// A batch event without ids (an older producer) adds no row on a guess:
// the phase's first event adds it under its id.
func TestBatchWithoutIDsAddsNoGuessedRow(t *testing.T) {
	t.Parallel()
	o := liveOptions(&fakeController{})
	o.Batches = nil
	h := newHarness(t, o, 100, 30)
	h.feed([]event.Event{{Kind: event.BatchStarted, Time: t0, Batch: 1, Phases: []phaseid.Display{"2-A"}}})
	require.Empty(t, h.m.phases.rows)
	h.feed([]event.Event{{Kind: event.PhaseStarted, Time: t0, PhaseID: "2a", DisplayID: "2-A", Batch: 1, Attempt: 1}})
	require.Len(t, h.m.phases.rows, 1)
	require.Equal(t, phaseid.Display("2-A"), h.m.phases.byID["2a"].displayID)
}

// Watch: log lines of a phase whose file is not read yet show its id; the
// phase file then gives the display id, on the same row.
func TestWatchLinesBeforeThePhaseFile(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Watch: make(chan watch.Update), ReadOnly: true}, 100, 30)
	h.send(watchMsg{update: watch.Update{Lines: map[phaseid.ID][]string{"2a": {"hello"}}}})
	require.Len(t, h.m.phases.rows, 1)
	require.Equal(t, phaseid.Display("2a"), h.m.phases.byID["2a"].displayID, "not the guess 2A")
	snap := &state.Snapshot{Run: &state.Run{Status: state.RunRunning, Started: t0},
		Phases: []*state.Phase{{PhaseID: "2a", DisplayID: "2-A", Status: state.PhaseRunning, Batch: 1}}}
	h.send(watchMsg{update: watch.Update{Snapshot: snap}})
	require.Len(t, h.m.phases.rows, 1)
	require.Equal(t, phaseid.Display("2-A"), h.m.phases.byID["2a"].displayID)
}
