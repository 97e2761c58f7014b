package tui

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/watch"
)

// Every state under every event: the lifecycle's whole transition table.
func TestLifecycleTransitions(t *testing.T) {
	t.Parallel()
	type to struct {
		state lifeState
		quit  bool
	}
	same := func(s lifeState) to { return to{s, false} }
	table := map[lifeState]map[lifeEvent]to{
		lifeIdle: {
			lifeStarted: same(lifeIdle), lifeRefused: same(lifeIdle), lifeClosed: same(lifeIdle),
			lifeInterrupt: {lifeIdle, true}, lifeRestart: same(lifeIdle),
		},
		lifeStarting: {
			lifeStarted: same(lifeRunning), lifeRefused: same(lifeStartFailed), lifeClosed: same(lifeEnded),
			lifeInterrupt: same(lifeHaltingStart), lifeRestart: same(lifeStarting),
		},
		lifeRestarting: {
			lifeStarted: same(lifeRunning), lifeRefused: same(lifeStartFailed), lifeClosed: same(lifeEnded),
			lifeInterrupt: same(lifeHaltingStart), lifeRestart: same(lifeRestarting),
		},
		lifeRunning: {
			lifeStarted: same(lifeRunning), lifeRefused: same(lifeRunning), lifeClosed: same(lifeEnded),
			lifeInterrupt: same(lifeHalting), lifeRestart: same(lifeRunning),
		},
		lifeHaltingStart: {
			lifeStarted: same(lifeHalting), lifeRefused: {lifeStartFailed, true}, lifeClosed: {lifeEnded, true},
			lifeInterrupt: same(lifeHaltingStart), lifeRestart: same(lifeHaltingStart),
		},
		lifeHalting: {
			lifeStarted: same(lifeHalting), lifeRefused: same(lifeHalting), lifeClosed: {lifeEnded, true},
			lifeInterrupt: same(lifeHalting), lifeRestart: same(lifeHalting),
		},
		lifeEnded: {
			lifeStarted: same(lifeEnded), lifeRefused: same(lifeEnded), lifeClosed: same(lifeEnded),
			lifeInterrupt: {lifeEnded, true}, lifeRestart: same(lifeRestarting),
		},
		lifeStartFailed: {
			lifeStarted: same(lifeStartFailed), lifeRefused: same(lifeStartFailed), lifeClosed: same(lifeStartFailed),
			lifeInterrupt: {lifeStartFailed, true}, lifeRestart: same(lifeRestarting),
		},
	}
	require.Len(t, table, len(lifeNames), "every state has a row")
	for from, row := range table {
		require.Len(t, row, len(lifeEventNames), "every event has a column in %s's row", from)
		for e, want := range row {
			got, quit := from.next(e)
			require.Equal(t, want.state, got, "%s --%s-->", from, e)
			require.Equal(t, want.quit, quit, "%s --%s--> quits", from, e)
		}
	}
}

// What the rest of the model asks of each state.
func TestLifecycleQueries(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		state                            lifeState
		active, awaitingStart, isHalting bool
	}{
		{lifeIdle, false, false, false},
		{lifeStarting, true, true, false},
		{lifeRestarting, true, true, false},
		{lifeRunning, true, false, false},
		{lifeHaltingStart, true, true, true},
		{lifeHalting, true, false, true},
		{lifeEnded, false, false, false},
		{lifeStartFailed, false, false, false},
	} {
		l := lifecycle{state: tc.state}
		require.Equal(t, tc.active, l.active(), "%s active", tc.state)
		require.Equal(t, tc.awaitingStart, l.awaitingStart(), "%s awaiting start", tc.state)
		require.Equal(t, tc.isHalting, l.halting(), "%s halting", tc.state)
	}
}

// The model walks the lifecycle through its messages: start, refusal, r,
// interrupt, the end of the run and quitting.
func TestModelFollowsTheLifecycle(t *testing.T) {
	t.Parallel()
	fake := &fakeController{startErr: errors.New("another run holds the lock")}
	h := newHarness(t, liveOptions(fake), 100, 30)
	require.Equal(t, lifeStarting, h.m.life.state)
	h.init()
	h.until("the refusal", func(m *Model) bool { return m.life.state == lifeStartFailed })
	require.EqualError(t, h.m.Result().StartErr, "another run holds the lock")

	run := make(chan event.Event, 64)
	fake.mu.Lock()
	fake.startErr = nil
	fake.runs = append(fake.runs, run)
	fake.mu.Unlock()
	h.key("r")
	require.Equal(t, lifeRestarting, h.m.life.state)
	require.Equal(t, 2, h.m.life.gen)
	require.NoError(t, h.m.life.err)
	h.until("the run", func(m *Model) bool { return m.life.state == lifeRunning })

	h.key("ctrl+c")
	require.Equal(t, lifeHalting, h.m.life.state)
	require.Equal(t, 1, h.m.life.interrupts)
	for _, e := range append(midRun(), haltEnd()...) {
		run <- e
	}
	close(run)
	h.until("quit: the program quits once the halted run has ended", func(*Model) bool { return h.quit })
	require.Equal(t, lifeEnded, h.m.life.state)
	require.Equal(t, state.RunHalted, h.m.Result().Status)
}

func TestWatchModelIsIdle(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Options{Watch: make(chan watch.Update), ReadOnly: true}, 80, 24)
	require.Equal(t, lifeIdle, h.m.life.state)
	h.key("ctrl+c")
	h.until("quit", func(*Model) bool { return h.quit })
}
