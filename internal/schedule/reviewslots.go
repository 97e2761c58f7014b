package schedule

import (
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// A phase waiting for review does no work: its slot (--max-parallel, and
// under the eager schedule its group's turn) goes to another phase while
// it waits, so phases that do not depend on it keep running. The runner
// calls attemptRequest.Held once the phase waits; the scheduler's
// goroutine of the attempt registered what giving the slot back means.

// whileHeld registers free as what gives phase id's slot back while its
// attempt runs; the returned func unregisters it.
func (s *Scheduler) whileHeld(id phaseid.ID, free func()) (undo func()) {
	s.mu.Lock()
	if s.frees == nil {
		s.frees = map[phaseid.ID]func(){}
	}
	s.frees[id] = free
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		delete(s.frees, id)
		s.mu.Unlock()
	}
}

// heldHook is the request's Held: it gives the phase's slot back, when
// its scheduler registered how.
func (s *Scheduler) heldHook(id phaseid.ID) func() {
	return func() {
		s.mu.Lock()
		free := s.frees[id]
		s.mu.Unlock()
		if free != nil {
			free()
		}
	}
}

// awaitsReview reports whether phase id waits for review with its work
// done: resuming it spends nothing, so no budget keeps it from its
// decision.
func (s *Scheduler) awaitsReview(id phaseid.ID) bool {
	ps := s.Rec.Get(id)
	return ps.Status == state.PhaseAwaitingReview && ps.Review != nil
}
