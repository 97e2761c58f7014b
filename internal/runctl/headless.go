package runctl

import (
	"context"
	"io"
	"sync"

	"github.com/autobuild-sh/autobuild/internal/engine"
	"github.com/autobuild-sh/autobuild/internal/event"
)

// Printer is a headless consumer of a run's events (the plain lines, the
// JSON lines).
type Printer struct {
	// Print is called with each event, in order, from one goroutine.
	Print func(event.Event)
	// Interest is what it shows of output lines.
	Interest event.OutputInterest
	// QueueLines bounds the output lines held for it when it falls behind.
	QueueLines int
	// Beside, when set, runs beside the run until it ends (the heartbeat).
	Beside func(ctx context.Context)
	// Listeners consume the same events besides Print (notifications),
	// each from its own subscription without output lines (Listen).
	Listeners []Listener
}

// Listener consumes a run's events besides its front end, until the
// channel closes (notify.Notifier.Consume). It must keep up: its
// subscription queues every event but output lines for it.
type Listener func(<-chan event.Event)

// listen subscribes each listener to bus, without output lines, and runs
// it in wg.
func listen(bus *event.Bus, ls []Listener, wg *sync.WaitGroup) {
	for _, l := range ls {
		sub := bus.Subscribe(16).ShowOutput(event.OutputNone)
		wg.Go(func() { l(sub.C) })
	}
}

// Headless runs cfg with p consuming its events, and returns once the run
// has ended and p has printed every event. The first Ctrl-C (or SIGTERM,
// SIGHUP) halts the run gracefully, the second kills its phases; what is
// said about them goes to notify.
func Headless(ctx context.Context, cfg engine.Config, p Printer, notify io.Writer) (engine.Result, error) {
	ctx, hardStop, stop := Interrupts(ctx, notify)
	defer stop()
	bus := event.NewBus()
	sub := bus.Subscribe(p.QueueLines).ShowOutput(p.Interest)
	defer sub.Unsubscribe()
	cfg.Sink, cfg.HardStop = bus, hardStop

	var wg sync.WaitGroup
	listen(bus, p.Listeners, &wg)
	besideCtx, stopBeside := context.WithCancel(context.WithoutCancel(ctx))
	if p.Beside != nil {
		wg.Go(func() { p.Beside(besideCtx) })
	}
	wg.Go(func() {
		for e := range sub.C {
			p.Print(e)
		}
	})
	res, err := engine.Run(ctx, cfg)
	bus.Close()
	stopBeside()
	wg.Wait()
	return res, err
}
