package checkout

import (
	"context"
	"sync"
)

// sharedReads lets callers who ask for the outside state at about the same
// time share one read of it: a caller gets the result of the first read
// that started after it asked, never of one already under way (that one
// could miss a change made just before the caller asked). Phases that
// start or finish together (a batch, a queue of landings) then cost your
// checkout one `git status`, which walks its whole tree, instead of one
// each.
//
// A caller whose context ends stops waiting at once and gets a state that
// is not ok ("nothing to compare"), as an interrupted read of its own
// would give. The read goes on for the others, and is stopped (its git
// command ended) when no caller waits for it any more.
type sharedReads struct {
	mu      sync.Mutex
	running *readRound // the read under way, nil when none
	next    *readRound // the read that callers who came during running wait for
	waiting int        // callers waiting for a read (for tests)
}

// readRound is one read and the callers waiting for it.
type readRound struct {
	done    chan struct{} // closed when st is set
	st      State
	ctx     context.Context
	cancel  context.CancelFunc
	callers int
}

func newSharedReads() *sharedReads { return &sharedReads{} }

func newReadRound() *readRound {
	ctx, cancel := context.WithCancel(context.Background())
	return &readRound{done: make(chan struct{}), ctx: ctx, cancel: cancel}
}

// read returns the result of a read by do that started after the call.
// do runs in a goroutine of its own, one read at a time, with a context
// that ends when every caller waiting for that read has left.
func (s *sharedReads) read(ctx context.Context, do func(context.Context) State) State {
	s.mu.Lock()
	var r *readRound
	start := false
	if s.running == nil {
		r, start = newReadRound(), true
		s.running = r
	} else {
		if s.next == nil {
			s.next = newReadRound()
		}
		r = s.next
	}
	r.callers++
	s.waiting++
	s.mu.Unlock()
	if start {
		go s.run(r, do)
	}
	select {
	case <-r.done:
		s.leave(r, false)
		return r.st
	case <-ctx.Done():
		s.leave(r, true)
		return State{}
	}
}

// leave takes a caller off round r; the last caller to give up on a round
// stops it (or drops it, when it has not started).
func (s *sharedReads) leave(r *readRound, gaveUp bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waiting--
	r.callers--
	if !gaveUp || r.callers > 0 {
		return
	}
	if s.next == r {
		s.next = nil
		return
	}
	r.cancel()
}

// run does round r and then each round callers came to wait for while the
// one before was under way.
func (s *sharedReads) run(r *readRound, do func(context.Context) State) {
	for r != nil {
		r.st = do(r.ctx)
		r.cancel()
		s.mu.Lock()
		close(r.done)
		r, s.next = s.next, nil
		s.running = r
		s.mu.Unlock()
	}
}

// waitingFor returns how many callers wait for a read.
func (s *sharedReads) waitingFor() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.waiting
}
