package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// ReviewMode is whether a person reviews a phase's change before it lands
// (--review, docs/running.md "Reviewing before landing").
type ReviewMode string

// The review modes.
const (
	// ReviewNone lands a phase once its gates pass: unattended runs stay
	// unattended.
	ReviewNone ReviewMode = "none"
	// ReviewPhase holds each phase whose gates passed until a person
	// approves or rejects it.
	ReviewPhase ReviewMode = "phase"
	// ReviewBatch holds the phases of a batch the same way; a decision
	// without a phase (autobuild review --approve) decides every phase of
	// the batch that waits.
	ReviewBatch ReviewMode = "batch"
)

// ReviewModes lists the modes, the default first.
func ReviewModes() []ReviewMode { return []ReviewMode{ReviewNone, ReviewPhase, ReviewBatch} }

// ParseReviewMode checks a mode given by a person; "" is not a mode.
func ParseReviewMode(s string) (ReviewMode, error) {
	return parseChoice(s, ReviewModes(), "review mode")
}

// ReviewModeNames is "none, phase, batch", for messages.
func ReviewModeNames() string { return choiceNames(ReviewModes()) }

// Holds reports whether the mode holds phases for review.
func (m ReviewMode) Holds() bool { return m == ReviewPhase || m == ReviewBatch }

// PhaseAwaitingReview is the status of a phase whose gates passed and that
// waits for a person's decision before it lands.
const PhaseAwaitingReview PhaseStatus = "awaiting_review"

// ReviewHold is what a phase awaiting review keeps in its phase file: where
// its work is kept (so a kill -9 loses none of it) and what the review
// shows.
type ReviewHold struct {
	Since time.Time `json:"since"`
	// Attempt is the attempt (within its run) whose work waits.
	Attempt int `json:"attempt"`
	// Base is the commit the phase's worktree started from; Tree the
	// worktree's files when the gates passed, kept reachable by Ref (a
	// commit on Base) until the phase lands or is rejected.
	Base string `json:"base"`
	Tree string `json:"tree"`
	Ref  string `json:"ref"`
	// Message is the agent's commit message, if it gave one.
	Message string `json:"message,omitempty"`
	// DiffPath is the change as a patch against Base, relative to the
	// repository root.
	DiffPath string `json:"diff_path,omitempty"`
}

// Review decisions.
const (
	DecisionApprove = "approve"
	DecisionReject  = "reject"
	// DecisionRecheck asks the engine to run the gates again on what a
	// person changed in the worktree, and to show the new change.
	DecisionRecheck = "recheck"
)

// ReviewDecision is a person's decision on a phase awaiting review, written
// to .autobuild/review/<file-id>.json by `autobuild review` or the TUI and
// read by the engine.
type ReviewDecision struct {
	PhaseID  phaseid.ID `json:"phase_id"`
	Decision string     `json:"decision"`
	// Note is what a rejection asks of the retry.
	Note string `json:"note,omitempty"`
	// Tree is the hold's tree the person saw; a decision about another
	// hold (an earlier one of the same phase) is ignored.
	Tree    string    `json:"tree,omitempty"`
	Decided time.Time `json:"decided"`
}

// ReviewDir is where decisions are written.
func (s *Store) ReviewDir() string { return filepath.Join(s.Dir(), "review") }

// ReviewDecisionPath is the decision file of phase id.
func (s *Store) ReviewDecisionPath(id phaseid.ID) string {
	return filepath.Join(s.ReviewDir(), string(FileIDOf(id))+".json")
}

// ReviewDiffPath is where the change of phase id awaiting review is kept.
func (s *Store) ReviewDiffPath(id phaseid.ID) string {
	return filepath.Join(s.ReviewDir(), string(FileIDOf(id))+".diff")
}

// SaveReviewDecision writes d atomically: the engine never reads half of it.
func (s *Store) SaveReviewDecision(d ReviewDecision) error {
	if err := os.MkdirAll(s.ReviewDir(), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", s.ReviewDir(), err)
	}
	return writeJSON(s.ReviewDecisionPath(d.PhaseID), d)
}

// LoadReviewDecision reads the decision on phase id; nil when there is none.
func (s *Store) LoadReviewDecision(id phaseid.ID) (*ReviewDecision, error) {
	data, err := os.ReadFile(s.ReviewDecisionPath(id))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the review decision: %w", err)
	}
	var d ReviewDecision
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("reading %s: %w", s.ReviewDecisionPath(id), err)
	}
	return &d, nil
}

// RemoveReviewDecision removes the decision on phase id, once taken.
func (s *Store) RemoveReviewDecision(id phaseid.ID) error {
	if err := os.Remove(s.ReviewDecisionPath(id)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("removing the review decision: %w", err)
	}
	return nil
}
