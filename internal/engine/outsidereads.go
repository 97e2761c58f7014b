package engine

import "sync"

// sharedReads lets callers who ask for the outside state at about the same
// time share one read of it: a caller gets the result of the first read
// that started after it asked, never of one already under way (that one
// could miss a change made just before the caller asked). Phases that
// start or finish together (a batch, a queue of landings) then cost your
// checkout one `git status`, which walks its whole tree, instead of one
// each.
type sharedReads struct {
	mu       sync.Mutex
	cond     *sync.Cond
	running  bool
	started  int          // reads started so far; the latest has this number
	finished int          // the number of the latest read finished
	last     outsideState // its result
	waiting  int          // callers waiting for a read (for tests)
}

func newSharedReads() *sharedReads {
	s := &sharedReads{}
	s.cond = sync.NewCond(&s.mu)
	return s
}

// read returns the result of a read by do that started after the call:
// do runs in this goroutine when no read is under way, otherwise the call
// waits for the next read, which one of the waiting callers runs.
func (s *sharedReads) read(do func() outsideState) outsideState {
	s.mu.Lock()
	defer s.mu.Unlock()
	want := s.started + 1
	for s.finished < want {
		if s.running {
			s.waiting++
			s.cond.Wait()
			s.waiting--
			continue
		}
		s.running = true
		s.started++
		s.mu.Unlock()
		st := do()
		s.mu.Lock()
		s.running = false
		s.finished, s.last = s.started, st
		s.cond.Broadcast()
	}
	return s.last
}

// waitingFor returns how many callers wait for a read.
func (s *sharedReads) waitingFor() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.waiting
}
