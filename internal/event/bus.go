package event

import (
	"context"
	"sync"
	"sync/atomic"
)

// Bus fans events out to subscribers without ever blocking the emitter. Each
// subscriber has its own queue; when a subscriber falls behind by more than
// its limit, the oldest output lines in its queue are dropped (the full output
// is in the log files). Every other event is always delivered, in order.
type Bus struct {
	mu     sync.Mutex // guards subs and closed
	subs   []*Subscription
	closed bool
	// interest is the largest OutputInterest of subs, kept by
	// recountInterest under mu and read without it.
	interest atomic.Int32
}

// NewBus returns a Bus with no subscribers.
func NewBus() *Bus { return &Bus{} }

// Subscription is one consumer's view of a Bus.
type Subscription struct {
	// C delivers the events; it is closed after Close on the Bus once every
	// queued event has been delivered.
	C <-chan Event

	out      chan Event
	wake     chan struct{}
	maxLines int
	bus      *Bus
	done     chan struct{} // closed by Unsubscribe
	once     sync.Once
	interest atomic.Int32 // an OutputInterest; set under bus.mu

	mu      sync.Mutex // guards queue, closed and Dropped
	queue   []Event
	lines   int // output lines in queue
	closed  bool
	dropped int
}

// Subscribe adds a consumer. maxLines bounds how many undelivered output
// lines it may hold (at least 16).
func (b *Bus) Subscribe(maxLines int) *Subscription {
	if maxLines < 16 {
		maxLines = 16
	}
	out := make(chan Event)
	s := &Subscription{C: out, out: out, wake: make(chan struct{}, 1), maxLines: maxLines, bus: b,
		done: make(chan struct{})}
	s.interest.Store(int32(OutputAll))
	b.mu.Lock()
	if b.closed {
		s.closed = true
	}
	b.subs = append(b.subs, s)
	b.recountInterest()
	b.mu.Unlock()
	go s.pump()
	return s
}

// SubscribeContext is Subscribe for a consumer that lives as long as ctx:
// when ctx ends, the subscription is unsubscribed.
func (b *Bus) SubscribeContext(ctx context.Context, maxLines int) *Subscription {
	s := b.Subscribe(maxLines)
	context.AfterFunc(ctx, s.Unsubscribe)
	return s
}

// Unsubscribe ends the subscription at once, whatever is still queued: the
// bus forgets it, C closes, and the goroutine that delivered its events
// ends even when nobody reads C any more (a consumer that stopped reading
// would otherwise park it for good).
func (s *Subscription) Unsubscribe() {
	s.once.Do(func() {
		s.bus.remove(s)
		close(s.done)
	})
}

// remove forgets a subscription.
func (b *Bus) remove(s *Subscription) {
	b.mu.Lock()
	defer b.mu.Unlock()
	subs := make([]*Subscription, 0, len(b.subs))
	for _, o := range b.subs {
		if o != s {
			subs = append(subs, o)
		}
	}
	b.subs = subs
	b.recountInterest()
}

// Emit queues the event for every subscriber and returns at once. An
// output line goes only to the subscribers that show output.
func (b *Bus) Emit(e Event) {
	b.mu.Lock()
	subs := b.subs
	closed := b.closed
	b.mu.Unlock()
	if closed {
		return
	}
	output := e.Kind == PhaseOutput
	for _, s := range subs {
		if output && OutputInterest(s.interest.Load()) == OutputNone {
			continue
		}
		s.push(e)
	}
}

// Close ends the stream: subscribers receive what is queued, then C closes.
func (b *Bus) Close() {
	b.mu.Lock()
	subs := b.subs
	b.closed = true
	b.mu.Unlock()
	for _, s := range subs {
		s.mu.Lock()
		s.closed = true
		s.mu.Unlock()
		s.signal()
	}
}

// Dropped reports how many output lines were dropped for this subscriber.
func (s *Subscription) Dropped() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dropped
}

func (s *Subscription) push(e Event) {
	s.mu.Lock()
	s.queue = append(s.queue, e)
	if e.Kind.Droppable() {
		s.lines++
		if s.lines > s.maxLines {
			s.dropOldestLines()
		}
	}
	s.mu.Unlock()
	s.signal()
}

func (s *Subscription) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// dropOldestLines removes the older half of the queued output lines in one
// pass, so a flood costs amortized constant time per line. Called with mu held.
func (s *Subscription) dropOldestLines() {
	toDrop := s.maxLines / 2
	kept := s.queue[:0]
	for _, e := range s.queue {
		if e.Kind.Droppable() && toDrop > 0 {
			toDrop--
			s.dropped++
			s.lines--
			continue
		}
		kept = append(kept, e)
	}
	clear(s.queue[len(kept):])
	s.queue = kept
}

// pump delivers queued events to C, one at a time, in order.
func (s *Subscription) pump() {
	for {
		s.mu.Lock()
		if len(s.queue) == 0 {
			closed := s.closed
			s.mu.Unlock()
			if closed {
				close(s.out)
				return
			}
			select {
			case <-s.wake:
			case <-s.done:
				close(s.out)
				return
			}
			continue
		}
		e := s.queue[0]
		s.queue[0] = Event{}
		s.queue = s.queue[1:]
		if e.Kind.Droppable() {
			s.lines--
		}
		s.mu.Unlock()
		select {
		case s.out <- e:
		case <-s.done:
			close(s.out)
			return
		}
	}
}
