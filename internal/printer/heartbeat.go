package printer

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/textwrap"
)

// HeartbeatEvery is how often plain output says that a running phase is
// still running: CI systems kill a job that prints nothing for a while
// (often 10 minutes), and a person watching a silent log cannot tell a
// long phase from a hung one.
const HeartbeatEvery = 30 * time.Second

// Heartbeat adds to plain output, every tick, one line per running phase
// with its elapsed time and its last activity:
//
//	[10:31:00] PHASE 2A RUNNING 4m30s (attempt 1/2) - last output 12s ago: compiling
//
// Events reach it through Wrap, which also serializes them with its own
// lines, so no line is ever cut by another.
type Heartbeat struct {
	W io.Writer
	// Now is the clock (time.Now when nil); Location the zone of the
	// printed times (time.Local when nil).
	Now      func() time.Time
	Location *time.Location

	mu      sync.Mutex // guards running and order, and every write to W
	running map[phaseid.ID]*beat
	order   []phaseid.ID // ids of running phases, in the order they started
}

// beat is what the heartbeat knows of one running phase.
type beat struct {
	display       phaseid.Display
	attempt, max  int
	started, last time.Time
	line          string
}

// Wrap returns print with the heartbeat watching each event first.
func (h *Heartbeat) Wrap(print func(event.Event)) func(event.Event) {
	return func(e event.Event) {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.observe(e)
		print(e)
	}
}

// observe updates the running phases from one event. The caller holds mu.
func (h *Heartbeat) observe(e event.Event) {
	if h.running == nil {
		h.running = map[phaseid.ID]*beat{}
	}
	b := h.running[e.PhaseID]
	switch e.Kind {
	case event.PhaseStarted:
		if b == nil {
			h.order = append(h.order, e.PhaseID)
		}
		h.running[e.PhaseID] = &beat{display: e.DisplayID, attempt: e.Attempt, max: e.MaxAttempts,
			started: e.Time, last: e.Time, line: "started"}
	case event.PhaseOutput:
		if b != nil {
			b.last, b.line = e.Time, textwrap.CleanLine(e.Line)
		}
	case event.AgentAction:
		if b != nil {
			b.last, b.line = e.Time, "→ "+textwrap.CleanLine(e.Line)
		}
	case event.GateResult:
		if b != nil && e.Gate != nil {
			b.last, b.line = e.Time, "gate "+e.Gate.Kind+" "+e.Gate.Status
		}
	case event.PhaseAwaitingReview:
		if b != nil {
			b.last, b.line = e.Time, "awaiting review: autobuild review "+string(e.DisplayID.Or(e.PhaseID))
		}
	case event.PhaseFailed, event.PhaseCompleted, event.PhaseInterrupted, event.PhaseBlocked, event.PhaseSkipped:
		h.stop(e.PhaseID)
	case event.RunHalted, event.RunInterrupted, event.RunComplete:
		h.running, h.order = nil, nil
	}
}

func (h *Heartbeat) stop(id phaseid.ID) {
	delete(h.running, id)
	h.order = slices.DeleteFunc(h.order, func(o phaseid.ID) bool { return o == id })
}

// Beat prints one line per running phase.
func (h *Heartbeat) Beat() {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := time.Now
	if h.Now != nil {
		now = h.Now
	}
	loc := h.Location
	if loc == nil {
		loc = time.Local
	}
	t := now()
	for _, id := range h.order {
		b := h.running[id]
		line := fmt.Sprintf("[%s] PHASE %s RUNNING %s", t.In(loc).Format("15:04:05"), b.display, round(t.Sub(b.started)))
		if b.max > 0 {
			line += fmt.Sprintf(" (attempt %d/%d)", b.attempt, b.max)
		}
		line += fmt.Sprintf(" - last output %s ago: %s", round(t.Sub(b.last)), clipRunes(b.line, 100))
		fmt.Fprintln(h.W, line)
	}
}

// Run beats on every tick until ctx ends.
func (h *Heartbeat) Run(ctx context.Context, tick <-chan time.Time) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick:
			h.Beat()
		}
	}
}

// round is a duration to the second, never negative: "4m30s".
func round(d time.Duration) time.Duration {
	return max(0, d.Round(time.Second))
}

func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
