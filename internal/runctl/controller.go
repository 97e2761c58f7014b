package runctl

import (
	"context"
	"sync"

	"github.com/autobuild-sh/autobuild/internal/engine"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// Options configure a Controller.
type Options struct {
	// Config is the run the command line asked for; each Start runs it in
	// its mode.
	Config engine.Config
	// QueueLines bounds the output lines a run's subscription holds for
	// a consumer behind (event.Bus.Subscribe).
	QueueLines int
	// Root finds the repository of Config.Dir for Snapshot before any run
	// has said where it is.
	Root func(dir string) (string, error)
	// Listeners consume each run's events besides the front end
	// (notifications).
	Listeners []Listener
	// Run is engine.Run when nil; tests put a stand-in there.
	Run func(context.Context, engine.Config) (engine.Result, error)
}

// Controller runs the engine for a front end that drives runs: one run at
// a time, each started by Start (the first run, a resume, a fresh start).
// It implements Control.
type Controller struct {
	opts Options

	mu sync.Mutex
	// pending is the event stream of the run begun before the front end
	// (Begin), handed to its first Start(New).
	pending <-chan event.Event
	root    string
	// cancel and hard stop the latest run; interrupts counts the
	// interrupts it was sent.
	cancel     context.CancelFunc
	hard       chan struct{}
	interrupts int
	// live is set from the moment Start has the run's context until the
	// engine returns: an interrupt then goes to that run, even while it is
	// still starting (taking the lock, checking the tree, removing the
	// worktrees of --fresh, replaying a resumed line).
	live bool
	// early counts interrupts sent while no run was live: the front end's
	// Start is on its way (it interrupts only a run it started), and they
	// go to that run as soon as Start creates it.
	early int
	done  chan struct{}
	res   engine.Result
	err   error
}

var _ Control = (*Controller)(nil)

// NewController returns a controller with no run yet.
func NewController(opts Options) *Controller {
	if opts.Run == nil {
		opts.Run = engine.Run
	}
	return &Controller{opts: opts}
}

// Begin starts the first run before the front end does, so a run the
// engine refuses (a lock, a changed plan, a missing commit mode) is
// reported on the terminal, not inside a screen that would vanish with it.
// The front end's first Start(New) gets its events.
func (c *Controller) Begin(ctx context.Context) error {
	events, err := c.Start(ctx, New)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.pending = events
	c.mu.Unlock()
	return nil
}

// Start begins a run and returns its events once the engine has accepted
// it (its first event), or the engine's refusal. The run can be
// interrupted from the moment Start is called, before the engine accepts
// it: an interrupt then stops the start (the engine reports the run as
// interrupted before any phase started).
func (c *Controller) Start(ctx context.Context, mode Mode) (<-chan event.Event, error) {
	c.mu.Lock()
	if c.pending != nil && mode == New {
		ch := c.pending
		c.pending = nil
		c.mu.Unlock()
		return ch, nil
	}
	c.mu.Unlock()
	c.Wait() // a run starts only after the last one ended

	cfg := c.opts.Config
	mode.apply(&cfg)
	runCtx, cancel := context.WithCancel(ctx)
	bus := event.NewBus()
	// The subscription lasts as long as its consumer (ctx), not the run:
	// the run's last events are delivered after the engine returns, and a
	// consumer that has gone cannot park the bus's goroutine.
	sub := bus.SubscribeContext(ctx, c.opts.QueueLines)
	var listeners sync.WaitGroup
	listen(bus, c.opts.Listeners, &listeners)
	cfg.Sink = bus
	hard := make(chan struct{})
	cfg.HardStop = hard
	done := make(chan struct{})

	c.mu.Lock()
	c.cancel, c.hard, c.interrupts, c.done, c.live = cancel, hard, 0, done, true
	c.res, c.err = engine.Result{}, nil
	for ; c.early > 0; c.early-- {
		c.interruptLocked()
	}
	c.mu.Unlock()

	out := make(chan event.Event, 256)
	first := make(chan struct{})
	go forward(ctx, sub.C, out, first)
	go func() {
		res, err := c.opts.Run(runCtx, cfg)
		c.mu.Lock()
		c.res, c.err, c.live = res, err, false
		if res.Root != "" {
			c.root = res.Root
		}
		c.mu.Unlock()
		bus.Close()
		listeners.Wait()
		cancel()
		close(done)
	}()
	select {
	case <-first:
		return out, nil
	case <-done:
		c.mu.Lock()
		res, err := c.res, c.err
		c.mu.Unlock()
		if err != nil && res.Status == "" {
			go discard(out)
			return nil, err
		}
		return out, nil
	}
}

// forward passes the run's events on to out until they end or the consumer
// has gone (ctx), closing first at the first event: the engine has
// accepted the run.
func forward(ctx context.Context, in <-chan event.Event, out chan<- event.Event, first chan struct{}) {
	defer close(out)
	var once sync.Once
	for e := range in {
		once.Do(func() { close(first) })
		select {
		case out <- e:
		case <-ctx.Done():
			return
		}
	}
}

// discard reads a refused run's few events to their end.
func discard(ch <-chan event.Event) {
	for range ch {
	}
}

// Cancel asks a run still going for a graceful halt, without counting as
// an interrupt (a run the user already interrupted is not killed).
func (c *Controller) Cancel() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cancel != nil {
		c.cancel()
	}
}

// Wait blocks until the current run (if any) has ended and returns how it
// ended.
func (c *Controller) Wait() (engine.Result, error) {
	c.mu.Lock()
	done := c.done
	c.mu.Unlock()
	if done != nil {
		<-done
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.res, c.err
}

// Interrupt asks for a graceful halt; a second call kills the phases. It
// reaches a run still starting too. With no run live, the front end's
// Start is on its way (r or F was just pressed): the interrupt is kept for
// the run that Start creates, rather than spent on the run before it,
// which has ended.
func (c *Controller) Interrupt() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.live {
		c.early++
		return
	}
	c.interruptLocked()
}

// Signalled passes on a SIGINT or SIGTERM from outside to the run that is
// live, if any. Unlike the front end's interrupts, one arriving between
// runs is not kept for the next: it was not about a run started after it.
func (c *Controller) Signalled() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.live {
		c.interruptLocked()
	}
}

// interruptLocked is one more interrupt of the live run: the first cancels
// its context (a graceful halt, or a start stopped), the second closes its
// hard stop. c.mu is held.
func (c *Controller) interruptLocked() {
	c.interrupts++
	switch c.interrupts {
	case 1:
		c.cancel()
	case 2:
		close(c.hard)
	}
}

// Snapshot reads the state files of the run's repository.
func (c *Controller) Snapshot() (*state.Snapshot, error) {
	c.mu.Lock()
	root := c.root
	c.mu.Unlock()
	if root == "" && c.opts.Root != nil {
		r, err := c.opts.Root(c.opts.Config.Dir)
		if err != nil {
			return nil, err
		}
		root = r
	}
	if root == "" {
		root = c.opts.Config.Dir
	}
	return state.Open(root).Snapshot()
}
