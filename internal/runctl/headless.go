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
