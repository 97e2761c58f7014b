package tui

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/watch"
)

var sizes = []struct{ w, h int }{{100, 30}, {80, 24}}

func name(base string, w, h int) string { return fmt.Sprintf("%s_%dx%d", base, w, h) }

func TestGoldenRunViewMidRun(t *testing.T) {
	t.Parallel()
	for _, sz := range append(sizes, struct{ w, h int }{140, 30}) {
		h := newHarness(t, liveOptions(&fakeController{}), sz.w, sz.h)
		h.feed(midRun())
		require.Equal(t, phaseid.ID("2a"), h.m.selected().id, "the first running phase is selected until the user moves")
		golden(t, name("run_mid", sz.w, sz.h), h.screen())
	}
}

// An eager run names its schedule in the header (a batch run's header, in
// run_mid above, does not).
func TestGoldenRunViewEager(t *testing.T) {
	t.Parallel()
	o := liveOptions(&fakeController{})
	o.Schedule = string(state.ScheduleEager)
	h := newHarness(t, o, 100, 30)
	h.feed(midRun())
	golden(t, "run_mid_eager_100x30", h.screen())
	require.Contains(t, h.screen(), "schedule eager")
}

func TestGoldenHaltScreen(t *testing.T) {
	t.Parallel()
	for _, sz := range sizes {
		fake := &fakeController{}
		h := newHarness(t, liveOptions(fake), sz.w, sz.h)
		h.feed(midRun())
		h.finish(haltEnd())
		snap := snapshotOf(h.m, state.RunHalted, "Phase 2B failed twice (test_failure)")
		fake.setSnapshot(snap)
		h.send(snapshotMsg{gen: h.m.life.gen, snap: snap})
		require.Equal(t, screenSummary, h.m.screen)
		golden(t, name("halt", sz.w, sz.h), h.screen())

		// The summary scrolls rather than losing lines.
		h.key("G")
		golden(t, name("halt_bottom", sz.w, sz.h), h.screen())

		// l opens the failed phase's log, gates and failure report.
		h.key("l")
		require.Equal(t, screenRun, h.m.screen)
		require.Equal(t, phaseid.ID("2b"), h.m.selected().id)
		golden(t, name("detail_failed", sz.w, sz.h), h.screen())
	}
}

func TestGoldenCompletionScreen(t *testing.T) {
	t.Parallel()
	for _, sz := range sizes {
		h := newHarness(t, liveOptions(&fakeController{}), sz.w, sz.h)
		h.feed(midRun())
		h.finish(completeEnd())
		snap := snapshotOf(h.m, state.RunComplete, "")
		h.send(snapshotMsg{gen: h.m.life.gen, snap: snap})
		golden(t, name("complete", sz.w, sz.h), h.screen())
	}
}

func TestGoldenWatchView(t *testing.T) {
	t.Parallel()
	for _, sz := range sizes {
		ch := make(chan watch.Update)
		h := newHarness(t, Options{Watch: ch, ReadOnly: true, Dir: "/src/todo", Commands: watchCommands("")}, sz.w, sz.h)
		golden(t, name("watch_waiting", sz.w, sz.h), h.screen())

		// Build the state a run would have written, from a live model.
		live := newHarness(t, liveOptions(&fakeController{}), sz.w, sz.h)
		live.feed(midRun())
		snap := snapshotOf(live.m, state.RunRunning, "")
		for _, p := range snap.Phases {
			if p.Status == state.PhaseRunning {
				started := t0.Add(102 * time.Second)
				p.Timestamps.Started = &started
				p.LastOutput = "from the phase file"
			}
		}
		h.send(watchMsg{update: watch.Update{Snapshot: snap, Lines: map[phaseid.ID][]string{
			"2a": {"Writing handlers for /todos", "go test ./api/... ok"},
		}}})
		golden(t, name("watch_running", sz.w, sz.h), h.screen())

		h.key("r")
		require.Contains(t, h.screen(), "Read-only: the run is going on in another process.")
	}
}

// The glyphs and words of every status, in one golden.
func TestGoldenStatuses(t *testing.T) {
	t.Parallel()
	h := newHarness(t, liveOptions(&fakeController{}), 100, 30)
	h.feed(midRun())
	interrupted := ev(event.PhaseInterrupted, "2c", 190)
	blocked := ev(event.PhaseBlocked, "3", 190)
	blocked.BlockedBy = []phaseid.Display{"2B"}
	// Not retryable: failed at once (a retryable one shows its retry
	// queued, retryqueued_test.go).
	fail := failed("2a", 191, 1, "boom")
	fail.Failure.Retryable = false
	h.feed([]event.Event{interrupted, blocked, fail})
	golden(t, "statuses_100x30", h.screen())
}

// The detail pane of a completed phase: its log, its gates with their
// commands, its commit.
func TestGoldenDetailGates(t *testing.T) {
	t.Parallel()
	for _, sz := range sizes {
		h := newHarness(t, liveOptions(&fakeController{}), sz.w, sz.h)
		h.feed(midRun())
		h.key("g")
		h.key("enter")
		require.Equal(t, phaseid.ID("0"), h.m.selected().id)
		require.Equal(t, focusDetail, h.m.focus)
		out := h.screen()
		require.Contains(t, out, "── gates ──")
		require.Contains(t, out, "$ go build ./...")
		require.Contains(t, out, "a1b2c3d chore(repo): bootstrap the module")
		golden(t, name("detail_gates", sz.w, sz.h), out)
	}
}
