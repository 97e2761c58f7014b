package notify

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/sanitize"
)

// Channel delivers documents somewhere: a webhook, a command, the desktop.
// Send may take its time and retry; it must return when ctx ends.
type Channel interface {
	// Name says where it delivers, with any secret redacted: it is printed.
	Name() string
	Send(ctx context.Context, d Document) error
}

// Options configure a Notifier.
type Options struct {
	Channels []Channel
	// Kinds are the notifications to send (DefaultKinds when empty).
	Kinds []Kind
	// LimitWait is the shortest usage-limit wait that notifies.
	LimitWait time.Duration
	// Plan and Dir name the run in every document.
	Plan, Dir string
	// Resume gives the command that resumes a halted run (nil: none).
	Resume func(Document) string
	// Errors, when set, hears of deliveries that failed for good (one
	// line each, secrets redacted); nil drops them.
	Errors io.Writer
	// Queue bounds the documents waiting per channel (64 when 0); past
	// it the oldest waiting one is dropped.
	Queue int
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Notifier sends the documents of a run's events to its channels. Notify
// and Consume never wait for a channel: each channel has its own queue and
// goroutine, so a webhook that is down or slow delays nothing.
type Notifier struct {
	opts    Options
	kinds   map[Kind]bool
	tracker tracker
	ctx     context.Context
	cancel  context.CancelFunc
	workers []*worker
	wg      sync.WaitGroup
	errMu   sync.Mutex
}

// New starts a Notifier's channel goroutines; Close ends them.
func New(opts Options) *Notifier {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Queue <= 0 {
		opts.Queue = 64
	}
	kinds := opts.Kinds
	if len(kinds) == 0 {
		kinds = DefaultKinds()
	}
	n := &Notifier{opts: opts, kinds: map[Kind]bool{}}
	for _, k := range kinds {
		n.kinds[k] = true
	}
	n.ctx, n.cancel = context.WithCancel(context.Background())
	for _, c := range opts.Channels {
		w := &worker{ch: c, wake: make(chan struct{}, 1), limit: opts.Queue}
		n.workers = append(n.workers, w)
		n.wg.Go(func() { n.run(w) })
	}
	return n
}

// Consume notifies for each event of a subscription until it closes.
func (n *Notifier) Consume(events <-chan event.Event) {
	for e := range events {
		n.Notify(e)
	}
}

// Notify turns one event into a document, when it is one that is wanted,
// and queues it for every channel. It returns at once.
func (n *Notifier) Notify(e event.Event) {
	d, ok := n.Document(e)
	if !ok {
		return
	}
	for _, w := range n.workers {
		w.push(d)
	}
}

// Document is the document an event makes, if it makes a wanted one. Call
// it (or Notify) with every event in order: it counts commits.
func (n *Notifier) Document(e event.Event) (Document, bool) {
	d, ok := n.tracker.document(e, n.opts.LimitWait, n.opts.Now())
	if !ok || !n.kinds[d.Notification] {
		return Document{}, false
	}
	d.Plan, d.Dir = n.opts.Plan, n.opts.Dir
	if d.Notification == Halted || d.Notification == BudgetReached {
		if n.opts.Resume != nil {
			d.ResumeCommand = n.opts.Resume(d)
		}
		if d.ResumeCommand != "" {
			d.Text += " Resume: " + sanitize.Line(d.ResumeCommand)
		}
	}
	return d, true
}

// Close waits up to grace for the queued documents to be delivered (the
// run's last one is usually the one that matters), then stops every
// delivery still going. It returns the number of documents not delivered.
func (n *Notifier) Close(grace time.Duration) int {
	for _, w := range n.workers {
		w.close()
	}
	done := make(chan struct{})
	go func() { n.wg.Wait(); close(done) }()
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		n.cancel()
		<-done
	}
	n.cancel()
	left := 0
	for _, w := range n.workers {
		left += w.lost
	}
	return left
}

// Names lists the channels, secrets redacted.
func (n *Notifier) Names() []string {
	var out []string
	for _, c := range n.opts.Channels {
		out = append(out, c.Name())
	}
	return out
}

// run delivers a channel's queue, in order, one at a time.
func (n *Notifier) run(w *worker) {
	for {
		d, ok := w.next(n.ctx)
		if !ok {
			return
		}
		if err := w.ch.Send(n.ctx, d); err != nil {
			w.mu.Lock()
			w.lost++
			w.mu.Unlock()
			n.report(fmt.Sprintf("autobuild: notification %s to %s not delivered: %v", d.Notification, w.ch.Name(), err))
		}
	}
}

func (n *Notifier) report(line string) {
	if n.opts.Errors == nil {
		return
	}
	n.errMu.Lock()
	defer n.errMu.Unlock()
	fmt.Fprintln(n.opts.Errors, sanitize.Line(line))
}

// worker is one channel's queue.
type worker struct {
	ch    Channel
	wake  chan struct{}
	limit int

	mu     sync.Mutex
	queue  []Document
	closed bool
	lost   int // dropped from a full queue, failed, or cut off by Close
}

func (w *worker) push(d Document) {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return
	}
	if len(w.queue) >= w.limit {
		w.queue = slices.Delete(w.queue, 0, 1)
		w.lost++
	}
	w.queue = append(w.queue, d)
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *worker) close() {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// next waits for the next document; false once closed and empty, or when
// ctx ends (what is left counts as lost).
func (w *worker) next(ctx context.Context) (Document, bool) {
	for {
		w.mu.Lock()
		if len(w.queue) > 0 && ctx.Err() == nil {
			d := w.queue[0]
			w.queue = w.queue[1:]
			w.mu.Unlock()
			return d, true
		}
		if ctx.Err() != nil || w.closed {
			w.lost += len(w.queue)
			w.queue = nil
			w.mu.Unlock()
			return Document{}, false
		}
		w.mu.Unlock()
		select {
		case <-w.wake:
		case <-ctx.Done():
		}
	}
}
