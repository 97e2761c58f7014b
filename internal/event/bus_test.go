package event

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

func TestBusDeliversInOrder(t *testing.T) {
	t.Parallel()
	bus := NewBus()
	a, b := bus.Subscribe(100), bus.Subscribe(100)
	for i := range 50 {
		bus.Emit(Event{Kind: PhaseStarted, PhaseID: phaseid.ID(fmt.Sprint(i))})
	}
	bus.Close()
	for _, sub := range []*Subscription{a, b} {
		var got []phaseid.ID
		for e := range sub.C {
			got = append(got, e.PhaseID)
		}
		require.Len(t, got, 50)
		require.Equal(t, phaseid.ID("0"), got[0])
		require.Equal(t, phaseid.ID("49"), got[49])
	}
}

// A consumer that never reads (a paused or slow screen) must not slow the
// emitter, must hold a bounded number of output lines, and must still get
// every non-output event, in order.
func TestBusNeverBlocksOnAStalledConsumer(t *testing.T) {
	t.Parallel()
	bus := NewBus()
	sub := bus.Subscribe(1000)
	const lines = 200_000
	done := make(chan struct{})
	go func() {
		defer close(done)
		bus.Emit(Event{Kind: PhaseStarted, PhaseID: "1"})
		for i := range lines {
			bus.Emit(Event{Kind: PhaseOutput, PhaseID: "1", Line: fmt.Sprint(i)})
		}
		bus.Emit(Event{Kind: PhaseFailed, PhaseID: "1"})
		bus.Emit(Event{Kind: RunHalted})
		bus.Close()
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("Emit blocked on a consumer that does not read")
	}
	sub.mu.Lock()
	queued := sub.lines
	sub.mu.Unlock()
	require.LessOrEqual(t, queued, 1000, "output lines held for the stalled consumer must stay bounded")

	var kinds []Kind
	outputs := 0
	last := ""
	for e := range sub.C {
		if e.Kind == PhaseOutput {
			outputs++
			last = e.Line
			continue
		}
		kinds = append(kinds, e.Kind)
	}
	require.Equal(t, []Kind{PhaseStarted, PhaseFailed, RunHalted}, kinds, "terminal events are never dropped")
	require.Equal(t, fmt.Sprint(lines-1), last, "the newest lines are the ones kept")
	require.Equal(t, lines, outputs+sub.Dropped())
}

func TestSubscribeAfterCloseEndsAtOnce(t *testing.T) {
	t.Parallel()
	bus := NewBus()
	bus.Close()
	sub := bus.Subscribe(10)
	_, ok := <-sub.C
	require.False(t, ok)
}

func TestDescribe(t *testing.T) {
	t.Parallel()
	require.Equal(t, "PHASE 2A FAILED - test_failure: 2 tests failing (attempt 1/2)",
		Describe(Event{Kind: PhaseFailed, DisplayID: "2A", Attempt: 1, MaxAttempts: 2,
			Failure: &failureReport}))
	require.Equal(t, "", Describe(Event{Kind: PhaseOutput, Line: "x"}))
	require.Equal(t, "PHASE 3 BLOCKED - by 2A, 2B", Describe(Event{Kind: PhaseBlocked, DisplayID: "3", BlockedBy: []phaseid.Display{"2A", "2B"}}))
	for status, want := range map[string]string{state.GatePassed: "PASSED", state.GateFailed: "FAILED",
		state.GateNotRun: "NOT RUN", state.GateMissing: "NOT RUN (tool missing)"} {
		require.Equal(t, "PHASE 1 GATE lint "+want+" - ruff check .",
			Describe(Event{Kind: GateResult, DisplayID: "1", Gate: &Gate{Kind: "lint", Status: status, Command: "ruff check ."}}))
	}
	// --allow-red-base: a gate that failed with only the base's failing
	// tests counts as passed, and says so.
	require.Equal(t, "PHASE 1 GATE test PASSED (only the base's known failures: 2) - go test ./...",
		Describe(Event{Kind: GateResult, DisplayID: "1", Gate: &Gate{Kind: "test", Status: state.GatePassed, Command: "go test ./...", KnownFailures: 2}}))
	require.Equal(t, "PHASE 2A ON WORKER - build-7:4242 (attempt 1/2)",
		Describe(Event{Kind: PhaseWorker, DisplayID: "2A", Attempt: 1, MaxAttempts: 2, Line: "build-7:4242"}))
	require.Equal(t, "PHASE 2A INTEGRATED - abcdef0 feat(api): x",
		Describe(Event{Kind: PhaseIntegrated, DisplayID: "2A", Commit: &state.Commit{SHA: "abcdef0123", Message: "feat(api): x\n\nbody"}}))
}

// BenchmarkBusEmit measures the cost the engine pays per output line with
// one consumer draining as fast as it can.
func BenchmarkBusEmit(b *testing.B) {
	bus := NewBus()
	sub := bus.Subscribe(1 << 12)
	go func() {
		for range sub.C {
		}
	}()
	e := Event{Kind: PhaseOutput, PhaseID: "1", Line: "a line of agent output"}
	b.ReportAllocs()
	for b.Loop() {
		bus.Emit(e)
	}
	bus.Close()
}
