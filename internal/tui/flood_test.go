package tui

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/runctl"
	"github.com/autobuild-sh/autobuild/internal/state"
)

func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// A million output lines through the model keep memory at the ring's size,
// and the terminal events after them still arrive.
func TestFloodKeepsMemoryBounded(t *testing.T) {
	h := newHarness(t, liveOptions(&fakeController{}), 80, 24)
	h.feed(midRun())
	h.key("enter") // the detail pane shows the flooding phase
	r := h.m.phases.byID["2a"]
	linesBefore := r.log.total
	before := heapInUse()

	// One batch is built once and fed again and again: building a million
	// distinct strings would measure fmt, not the model.
	const total = 1_000_000
	batch := make([]event.Event, maxBatch)
	for i := range batch {
		batch[i] = output("2a", 181, fmt.Sprintf("flood line %07d: the agent is very talkative today, padding padding", i))
	}
	for fed := 0; fed < total; fed += len(batch) {
		h.feed(batch[:min(len(batch), total-fed)])
	}
	h.screen()
	after := heapInUse()

	require.Equal(t, DefaultLogLines, r.log.len())
	require.LessOrEqual(t, cap(r.log.buf), DefaultLogLines, "the ring never grows past its capacity")
	require.Equal(t, linesBefore+total, r.log.total)
	require.Equal(t, fmt.Sprintf("flood line %07d: the agent is very talkative today, padding padding", (total-1)%maxBatch), r.last)
	// The ring holds 5000 lines: well under a megabyte. Keeping every line
	// would cost 16 MB for the string headers alone.
	require.Less(t, int64(after)-int64(before), int64(4<<20), "heap grew from %d to %d", before, after)

	h.finish(haltEnd())
	require.Equal(t, stFailed, h.m.phases.byID["2b"].status)
	require.Equal(t, stBlocked, h.m.phases.byID["3"].status)
	require.Equal(t, state.RunHalted, h.m.run.status)
}

// The engine emits through event.Bus. A TUI that is not reading (a paused
// or slow screen) must not slow it: emitting returns at once, old output
// lines are dropped for the slow reader, and no terminal event is lost.
func TestEngineIsNotSlowedByAModelThatDoesNotRead(t *testing.T) {
	bus := event.NewBus()
	sub := bus.Subscribe(4096)
	ctl := &busController{fakeController: &fakeController{}, sub: sub}

	// The "engine": a whole run with a flood of output, while nobody reads.
	const lines = 200_000
	emitted := make(chan time.Duration)
	go func() {
		begin := time.Now()
		for _, e := range midRun() {
			bus.Emit(e)
		}
		for i := range lines {
			bus.Emit(output("2b", 200, fmt.Sprintf("line %d", i)))
		}
		for _, e := range haltEnd() {
			bus.Emit(e)
		}
		bus.Close()
		emitted <- time.Since(begin)
	}()
	select {
	case d := <-emitted:
		t.Logf("emitted %d events in %v with no reader", lines, d)
	case <-time.After(20 * time.Second):
		t.Fatal("the engine was blocked by a reader that does not read")
	}

	o := liveOptions(nil)
	o.Controller = ctl
	h := newHarness(t, o, 80, 24)
	ctl.fakeController.t, ctl.fakeController.updateGo = t, goroutineID()
	h.init()
	h.until("the end of the run", func(m *Model) bool { return !m.life.active() && m.run.status == state.RunHalted })
	require.Greater(t, sub.Dropped(), 0, "old output lines were dropped for the slow reader")
	require.Equal(t, stFailed, h.m.phases.byID["2b"].status, "the terminal phase event arrived")
	require.Equal(t, stBlocked, h.m.phases.byID["3"].status)
	require.Equal(t, stComplete, h.m.phases.byID["2a"].status)
	require.LessOrEqual(t, h.m.phases.byID["2b"].log.len(), DefaultLogLines)
}

// busController hands out a Bus subscription as the run's events.
type busController struct {
	*fakeController
	sub *event.Subscription
}

func (b *busController) Start(_ context.Context, mode runctl.Mode) (<-chan event.Event, error) {
	b.check("Start")
	return b.sub.C, nil
}
