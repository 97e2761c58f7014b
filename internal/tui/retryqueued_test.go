package tui

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/watch"
)

// untilRetry is midRun up to 2B's first failure: its retry waits (for its
// batch's siblings, or a free slot) and is announced only when it starts.
func untilRetry() []event.Event {
	evs := midRun()
	for i, e := range evs {
		if e.Kind == event.PhaseRetrying {
			return append(evs[:i:i], started("2c", 102, 1), output("2c", 150, "Updating README.md with the API section"))
		}
	}
	panic("midRun has no retry")
}

// A phase whose retry is queued shows "retry queued" (↻, the failure
// named), not a red "failed" that then turns into running; when the
// retry is announced the row says so, then it runs.
func TestGoldenRetryQueued(t *testing.T) {
	t.Parallel()
	h := newHarness(t, liveOptions(&fakeController{}), 100, 30)
	h.feed(untilRetry())
	golden(t, "retry_queued_100x30", h.screen())
	r := h.m.phases.byID["2b"]
	require.Equal(t, stRetrying, r.status)
	require.Contains(t, h.screen(), "↻ 2B")
	require.Contains(t, h.screen(), "retry queued after test_failure: 1 test failed")
	require.Contains(t, h.screen(), "1 retrying")
	require.NotContains(t, h.screen(), "failed ·")

	retry := ev(event.PhaseRetrying, "2b", 170)
	retry.Line = "retrying after test_failure with the failure as context"
	h.feed([]event.Event{retry})
	require.Contains(t, h.screen(), "retry: retrying after test_failure")
	h.feed([]event.Event{started("2b", 171, 2)})
	require.Equal(t, stRunning, r.status)
}

// A halt decided meanwhile (another phase's failure not retried) starts no
// retry: the queued one shows failed again; so does the run's end.
func TestRetryQueuedShowsFailedOnceTheRunStops(t *testing.T) {
	t.Parallel()
	h := newHarness(t, liveOptions(&fakeController{}), 100, 30)
	h.feed(untilRetry())
	final := failed("2c", 180, 1, "no")
	final.Failure.Retryable = false
	h.feed([]event.Event{final})
	require.Equal(t, stFailed, h.m.phases.byID["2b"].status, "no retry starts after a halt")
	require.Contains(t, h.screen(), "✗ 2B")

	h = newHarness(t, liveOptions(&fakeController{}), 100, 30)
	h.feed(untilRetry())
	h.feed([]event.Event{{Kind: event.BudgetReached, Time: t0.Add(181 * time.Second), Line: "the run's budget is reached"}})
	require.Equal(t, stFailed, h.m.phases.byID["2b"].status, "a budget reached starts no retry")

	h = newHarness(t, liveOptions(&fakeController{}), 100, 30)
	h.feed(untilRetry())
	h.finish([]event.Event{{Kind: event.RunInterrupted, Time: t0.Add(182 * time.Second)}})
	require.Equal(t, stFailed, h.m.phases.byID["2b"].status, "the run's end starts no retry")

	// A failure repeated (circular) or on the last attempt is not queued.
	h = newHarness(t, liveOptions(&fakeController{}), 100, 30)
	circular := failed("2b", 150, 1, "same")
	circular.Failure.Circular = true
	h.feed(append(untilRetry(), circular))
	require.Equal(t, stFailed, h.m.phases.byID["2b"].status)
}

// A usage limit is not a queued retry: its own events follow at once
// (another agent, a wait) and it does not stop the run.
func TestRateLimitIsNotAQueuedRetry(t *testing.T) {
	t.Parallel()
	h := newHarness(t, liveOptions(&fakeController{}), 100, 30)
	h.feed(untilRetry())
	limited := failed("2a", 181, 1, "limited")
	limited.Failure.Type = "rate_limited"
	h.feed([]event.Event{limited})
	require.Equal(t, stFailed, h.m.phases.byID["2a"].status)
	require.Equal(t, stRetrying, h.m.phases.byID["2b"].status, "a limit stops nothing")
}

// `autobuild watch` reads the phase files, which say failed for an attempt
// whose retry is queued: it shows the retry queued while the run runs.
func TestWatchShowsTheQueuedRetry(t *testing.T) {
	t.Parallel()
	ch := make(chan watch.Update)
	h := newHarness(t, Options{Watch: ch, ReadOnly: true, Dir: "/src/todo", Commands: watchCommands("")}, 100, 30)
	live := newHarness(t, liveOptions(&fakeController{}), 100, 30)
	live.feed(untilRetry())
	snap := snapshotOf(live.m, state.RunRunning, "")
	var p2b *state.Phase
	for _, p := range snap.Phases {
		if p.PhaseID == "2b" {
			p2b = p
		}
	}
	p2b.Status, p2b.Attempt, p2b.MaxAttempts = state.PhaseFailed, 1, 2
	h.send(watchMsg{update: watch.Update{Snapshot: snap}})
	require.Equal(t, stRetrying, h.m.phases.byID["2b"].status)
	require.Contains(t, h.screen(), "retry queued after test_failure")

	// A failure that halts the run, in the files: no retry is to come;
	// unless it failed in an earlier session, which the resume runs again.
	var p2c *state.Phase
	for _, p := range snap.Phases {
		if p.PhaseID == "2c" {
			p2c = p
		}
	}
	p2c.Status, p2c.Attempt, p2c.MaxAttempts, p2c.Error = state.PhaseFailed, 2, 2, p2b.Error
	p2c.Attempts = []state.Attempt{{Number: 2, Started: t0.Add(102 * time.Second), Outcome: state.OutcomeFailed}}
	session := t0.Add(time.Minute)
	snap.Run.SessionStarted = &session
	h.send(watchMsg{update: watch.Update{Snapshot: snap}})
	require.Equal(t, stFailed, h.m.phases.byID["2b"].status)

	session = t0.Add(2 * time.Minute)
	h.send(watchMsg{update: watch.Update{Snapshot: snap}})
	require.Equal(t, stRetrying, h.m.phases.byID["2b"].status, "2C failed before this session")
}
