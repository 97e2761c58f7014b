package engine

import (
	"time"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// The recorder's changes of a phase held for review (review.go). Each
// writes the phase file before the run goes on: a kill -9 then leaves it
// awaiting review, and a resume holds it again.

// awaitingReview marks the phase awaiting review, with where its work is kept.
func (r *recorder) awaitingReview(id phaseid.ID, hold state.ReviewHold) {
	r.phase(id, func(ps *state.Phase) {
		ps.Status = state.PhaseAwaitingReview
		ps.Review = &hold
	})
}

// reviewStopped ends the attempt stopped (Ctrl-C) while it awaited
// review: the phase still awaits it.
func (r *recorder) reviewStopped(id phaseid.ID, started, now time.Time) {
	r.phase(id, func(ps *state.Phase) {
		if n := len(ps.Attempts); n > 0 && ps.Attempts[n-1].Outcome == state.OutcomeRunning {
			endAttempt(ps, state.OutcomeInterrupted, started, now)
		}
		ps.Status = state.PhaseAwaitingReview
	})
}

// reviewApproved records the approval; the phase lands next.
func (r *recorder) reviewApproved(id phaseid.ID) {
	r.phase(id, func(ps *state.Phase) {
		ps.Status = state.PhaseRunning
		ps.Review = nil
	})
}

// note keeps a person's note in the phase file (and the phase's history);
// a review note ends the hold.
func (r *recorder) note(id phaseid.ID, n state.Note) {
	r.phase(id, func(ps *state.Phase) {
		ps.Notes = append(ps.Notes, n)
		if n.Kind == "review" {
			ps.Review = nil
		}
	})
}

// keepReview reports whether a phase being resumed still awaits review,
// with its work kept, and readies it for the hold: its attempt that was
// running when the run stopped is interrupted. A hold record left on a
// phase that does not await review is dropped.
func keepReview(ps *state.Phase) bool {
	if ps.Status != state.PhaseAwaitingReview || ps.Review == nil {
		ps.Review = nil
		return false
	}
	for i := range ps.Attempts {
		if ps.Attempts[i].Outcome == state.OutcomeRunning {
			ps.Attempts[i].Outcome = state.OutcomeInterrupted
		}
	}
	ps.Error, ps.BlockedBy = nil, nil
	return true
}
