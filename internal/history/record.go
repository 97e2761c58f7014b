// Package history keeps the record of every attempt and every run end across
// runs, in .autobuild/history.jsonl, which --fresh keeps. The engine appends
// to it as attempts end (Observer); `autobuild report` (package metrics)
// reads it back. One JSON object per line, appended with O_APPEND and
// fsynced, so a kill -9 loses at most the line being written, and a reader
// skips such a torn line with a warning.
package history

import (
	"time"

	"github.com/autobuild-sh/autobuild/internal/budget"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// Version is the record schema's version, written in every line as "v". A
// reader skips lines of a newer version with a warning.
const Version = 1

// Record kinds.
const (
	KindAttempt = "attempt" // one attempt at a phase ended
	KindRunEnd  = "run_end" // one invocation of the run ended (complete, halted, interrupted)
)

// How a failed phase came to complete.
const (
	RecoveredByRetry  = "retry"  // by the automatic retry (or a rate-limit repeat) in the same invocation
	RecoveredByResume = "resume" // by a person: a later --resume, after a halt or an interrupt
)

// Record is one line of the history. Fields that do not apply to the kind
// are zero and left out.
type Record struct {
	V    int       `json:"v"`
	Kind string    `json:"kind"`
	Time time.Time `json:"time"`
	// RunID names the run: the time it first started. Resumes keep it,
	// --fresh starts a new one.
	RunID string `json:"run_id"`
	// Session names one invocation of autobuild on the run (the time it
	// started): a resume is a new session of the same run.
	Session   string `json:"session"`
	PlanPath  string `json:"plan_path"`
	PlanTitle string `json:"plan_title,omitempty"`

	// Attempt records.
	PhaseID   phaseid.ID      `json:"phase_id,omitempty"`
	DisplayID phaseid.Display `json:"display_id,omitempty"`
	PhaseName string          `json:"phase_name,omitempty"`
	// Attempt is the attempt's number in its session (2 is the retry).
	Attempt int    `json:"attempt,omitempty"`
	Agent   string `json:"agent,omitempty"`
	Model   string `json:"model,omitempty"`
	// Worker is the worker that made the attempt (--executor temporal);
	// empty for a local attempt.
	Worker string `json:"worker,omitempty"`
	// Outcome is state.OutcomeComplete, OutcomeFailed or OutcomeInterrupted.
	Outcome        string `json:"outcome,omitempty"`
	FailureType    string `json:"failure_type,omitempty"`
	FailureMessage string `json:"failure_message,omitempty"`
	Retryable      bool   `json:"retryable,omitempty"`
	// Note is a person's note that ended the attempt: a rejection in
	// review, or a steer that stopped it (NoteKind "review" or "steer").
	Note     string  `json:"note,omitempty"`
	NoteKind string  `json:"note_kind,omitempty"`
	Circular bool    `json:"circular,omitempty"`
	Duration float64 `json:"duration_seconds,omitempty"`
	// Usage is what the attempt cost, when the agent reported it.
	Usage *state.Usage `json:"usage,omitempty"`
	// Retry is set on the engine's retry of a failed attempt; Reassigned
	// when that retry ran on another agent than the failed attempt.
	Retry      bool `json:"retry,omitempty"`
	Reassigned bool `json:"reassigned,omitempty"`
	// RecoveredBy is set on a complete attempt that follows failures of the
	// same phase in the same run: RecoveredByRetry or RecoveredByResume.
	// RecoverySeconds is the time from the first of those failures to now.
	RecoveredBy     string  `json:"recovered_by,omitempty"`
	RecoverySeconds float64 `json:"recovery_seconds,omitempty"`

	// Run end records.
	Status string `json:"status,omitempty"`
	Reason string `json:"reason,omitempty"`
	// FailedPhases are the display ids of the phases that failed for good
	// in a halted session: each needs a person.
	FailedPhases []phaseid.Display `json:"failed_phases,omitempty"`
}

// Label is the phase as the user reads it: its display id, else its id.
func (r Record) Label() phaseid.Display { return r.DisplayID.Or(r.PhaseID) }

// Tokens is the attempt's input plus output tokens. Cache tokens are left
// out: some providers count them within the input already, and the report
// shows them apart.
func (r Record) Tokens() int64 {
	if r.Usage == nil {
		return 0
	}
	return r.Usage.InputTokens + r.Usage.OutputTokens
}

// CostUSD is the attempt's cost: what its CLI reported, else its tokens
// at the rate table's price (package budget); 0 when unknown.
func (r Record) CostUSD() float64 {
	usd, _ := budget.Price(r.Usage)
	return usd
}

// IDTime formats a time as a run or session id: sortable, UTC, to the
// nanosecond so two runs never share one.
func IDTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000000000Z")
}
