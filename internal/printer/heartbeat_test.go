package printer

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
)

// Every tick, each running phase gets one line: elapsed time, attempt, and
// how long ago it last printed what. Finished phases get none.
func TestHeartbeat(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 3, 14, 10, 30, 0, 0, time.UTC)
	now := t0
	var out bytes.Buffer
	h := &Heartbeat{W: &out, Now: func() time.Time { return now }, Location: time.UTC}
	var printed []event.Kind
	print := h.Wrap(func(e event.Event) { printed = append(printed, e.Kind) })

	print(event.Event{Kind: event.PhaseStarted, Time: t0, PhaseID: "2a", DisplayID: "2A", Attempt: 1, MaxAttempts: 2})
	print(event.Event{Kind: event.PhaseStarted, Time: t0.Add(5 * time.Second), PhaseID: "2b", DisplayID: "2B", Attempt: 2, MaxAttempts: 2})
	print(event.Event{Kind: event.PhaseOutput, Time: t0.Add(10 * time.Second), PhaseID: "2a", Line: "\x1b[31mcompiling\x1b[0m\tpkg"})
	require.Len(t, printed, 3, "events go on to the printer")

	now = t0.Add(30 * time.Second)
	h.Beat()
	require.Equal(t, "[10:30:30] PHASE 2A RUNNING 30s (attempt 1/2) - last output 20s ago: compiling       pkg\n"+
		"[10:30:30] PHASE 2B RUNNING 25s (attempt 2/2) - last output 25s ago: started\n", out.String())

	out.Reset()
	print(event.Event{Kind: event.GateResult, Time: t0.Add(40 * time.Second), PhaseID: "2b", Gate: &event.Gate{Kind: "test", Status: "passed"}})
	print(event.Event{Kind: event.PhaseCompleted, Time: t0.Add(50 * time.Second), PhaseID: "2a"})
	now = t0.Add(4*time.Minute + 35*time.Second)
	h.Beat()
	require.Equal(t, "[10:34:35] PHASE 2B RUNNING 4m30s (attempt 2/2) - last output 3m55s ago: gate test passed\n", out.String())

	out.Reset()
	print(event.Event{Kind: event.RunHalted, Time: now})
	h.Beat()
	require.Empty(t, out.String(), "nothing runs: no heartbeat")
}

// Run beats once per tick and ends with its context.
func TestHeartbeatRun(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 3, 14, 10, 30, 0, 0, time.UTC)
	var out bytes.Buffer
	h := &Heartbeat{W: &out, Now: func() time.Time { return t0.Add(time.Minute) }, Location: time.UTC}
	h.Wrap(func(event.Event) {})(event.Event{Kind: event.PhaseStarted, Time: t0, PhaseID: "1", DisplayID: "1"})
	tick := make(chan time.Time)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { h.Run(ctx, tick); close(done) }()
	tick <- t0
	tick <- t0
	cancel()
	<-done
	require.Equal(t, "[10:31:00] PHASE 1 RUNNING 1m0s - last output 1m0s ago: started\n"+
		"[10:31:00] PHASE 1 RUNNING 1m0s - last output 1m0s ago: started\n", out.String())
}
