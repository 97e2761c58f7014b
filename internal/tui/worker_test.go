package tui

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/watch"
)

// A remote run says which worker makes a phase's attempt: the row names
// it, and the next attempt starts without it until its worker is known.
func TestPhaseWorkerShowsOnTheRow(t *testing.T) {
	t.Parallel()
	h := newHarness(t, liveOptions(&fakeController{}), 120, 30)
	h.feed([]event.Event{
		{Kind: event.PhaseStarted, Time: t0, PhaseID: "1", DisplayID: "1", Attempt: 1, MaxAttempts: 2, Agent: "sim"},
		{Kind: event.PhaseWorker, Time: t0, PhaseID: "1", DisplayID: "1", Attempt: 1, Line: "build-7:4242"},
	})
	r := h.m.phases.byID["1"]
	require.Equal(t, "sim", r.agent)
	require.Equal(t, "build-7:4242", r.worker)
	require.Contains(t, h.screen(), "sim @build-7:4242", "the row")
	require.Contains(t, h.screen(), "sim · on build-7:4242 ·", "the pane's title")
	require.Contains(t, h.screen(), "── on worker build-7:4242 ──", "the log")
	h.feed([]event.Event{{Kind: event.PhaseWorker, Time: t0, PhaseID: "1", DisplayID: "1", Attempt: 1, Line: "build-8:1"}})
	require.Equal(t, "build-8:1", r.worker, "another worker took it over")
	h.feed([]event.Event{{Kind: event.PhaseStarted, Time: t0, PhaseID: "1", DisplayID: "1", Attempt: 2, MaxAttempts: 2, Agent: "sim"}})
	require.Empty(t, r.worker)

	// The filter finds the phases of one worker.
	h.feed([]event.Event{{Kind: event.PhaseWorker, Time: t0, PhaseID: "1", DisplayID: "1", Attempt: 2, Line: "gpu-1:7"}})
	h.m.table.filter = "gpu-1"
	require.Equal(t, []int{slices.Index(h.m.phases.rows, r)}, h.m.table.shown())
	h.m.table.filter = "gpu-2"
	require.Empty(t, h.m.table.shown())
}

// remoteRun is midRun on two workers: 0 and 1 ran on w1, 2A and 2C run on
// w1 and w2, 2B's retry has no worker yet.
func remoteRun() []event.Event {
	worker := func(id phaseid.ID, at float64, name string) event.Event {
		e := ev(event.PhaseWorker, id, at)
		e.Line = name
		return e
	}
	var out []event.Event
	for _, e := range midRun() {
		out = append(out, e)
		if e.Kind != event.PhaseStarted {
			continue
		}
		switch {
		case e.PhaseID == "2c":
			out = append(out, worker(e.PhaseID, 103, "build-8.example.org:31337"))
		case e.PhaseID == "2b" && e.Attempt == 2:
		default:
			out = append(out, worker(e.PhaseID, e.Time.Sub(t0).Seconds(), "build-7:4242"))
		}
	}
	return out
}

func TestGoldenRemoteRun(t *testing.T) {
	t.Parallel()
	for _, sz := range sizes {
		h := newHarness(t, liveOptions(&fakeController{}), sz.w, sz.h)
		h.feed(remoteRun())
		golden(t, name("run_remote", sz.w, sz.h), h.screen())
	}
	// Too narrow for the column: the pane's title still names it.
	h := newHarness(t, liveOptions(&fakeController{}), 70, 20)
	h.feed(remoteRun())
	require.NotContains(t, h.screen(), "@build-7")
	require.Contains(t, h.screen(), "on build-7:4242")
}

// watch reads the workers from the phase files of a run made elsewhere.
func TestWatchShowsTheWorkers(t *testing.T) {
	t.Parallel()
	ch := make(chan watch.Update)
	h := newHarness(t, Options{Watch: ch, ReadOnly: true, Dir: "/src/todo", Commands: watchCommands("")}, 100, 30)
	live := newHarness(t, liveOptions(&fakeController{}), 100, 30)
	live.feed(midRun())
	snap := snapshotOf(live.m, state.RunRunning, "")
	for _, p := range snap.Phases {
		switch p.PhaseID {
		case "0", "1", "2a":
			p.Attempts = []state.Attempt{{Number: 1, Agent: "sim", Worker: "build-7:4242"}}
		case "2c":
			// A name from another machine is cleaned before it is shown.
			p.Attempts = []state.Attempt{{Number: 1, Agent: "sim", Worker: "evil\x1b]0;pwned\x07\x1b[2J:1"}}
		}
		if p.Status == state.PhaseRunning {
			started := t0.Add(102 * time.Second)
			p.Timestamps.Started = &started
		}
	}
	h.send(watchMsg{update: watch.Update{Snapshot: snap}})
	out := h.screen()
	golden(t, "watch_remote_100x30", out)
	require.Contains(t, out, "@build-7:4242")
	require.NotContains(t, out, "\x1b]0;")
	require.NotContains(t, out, "\x07")
	require.Equal(t, "build-7:4242", h.m.phases.byID["2a"].worker)
	require.Empty(t, h.m.phases.byID["2b"].worker)
}
