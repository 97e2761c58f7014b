package record

import (
	"time"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// The recorder's changes of a phase held for review (engine/review.go). Each
// writes the phase file before the run goes on: a kill -9 then leaves it
// awaiting review, and a resume holds it again.

// AwaitingReview marks the phase awaiting review, with where its work is kept.
func (r *Recorder) AwaitingReview(id phaseid.ID, hold state.ReviewHold) {
	r.Phase(id, func(ps *state.Phase) {
		ps.Status = state.PhaseAwaitingReview
		ps.Review = &hold
	})
}

// ReviewStopped ends the attempt stopped (Ctrl-C) while it awaited
// review: the phase still awaits it.
func (r *Recorder) ReviewStopped(id phaseid.ID, started, now time.Time) {
	r.Phase(id, func(ps *state.Phase) {
		if n := len(ps.Attempts); n > 0 && ps.Attempts[n-1].Outcome == state.OutcomeRunning {
			EndAttempt(ps, state.OutcomeInterrupted, started, now)
		}
		ps.Status = state.PhaseAwaitingReview
	})
}

// ReviewApproved records the approval; the phase lands next.
func (r *Recorder) ReviewApproved(id phaseid.ID) {
	r.Phase(id, func(ps *state.Phase) {
		ps.Status = state.PhaseRunning
		ps.Review = nil
	})
}

// Note keeps a person's note in the phase file (and the phase's history);
// a review note ends the hold.
func (r *Recorder) Note(id phaseid.ID, n state.Note) {
	r.Phase(id, func(ps *state.Phase) {
		ps.Notes = append(ps.Notes, n)
		if n.Kind == "review" {
			ps.Review = nil
		}
	})
}

// KeepReview reports whether a phase being resumed still awaits review,
// with its work kept, and readies it for the hold: its attempt that was
// running when the run stopped is interrupted. A hold record left on a
// phase that does not await review is dropped.
func KeepReview(ps *state.Phase) bool {
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
