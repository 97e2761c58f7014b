package state

import (
	"fmt"
	"slices"
	"strings"
)

// phaseStatuses are the statuses a phase file may hold (or none).
var phaseStatuses = []PhaseStatus{PhasePending, PhaseRunning, PhaseAwaitingReview, PhaseComplete, PhaseFailed, PhaseBlocked, PhaseSkipped}

// attemptOutcomes are the outcomes an attempt may hold ("" in files of an
// attempt that was only just started by an older autobuild).
var attemptOutcomes = []string{"", OutcomeComplete, OutcomeFailed, OutcomeInterrupted, OutcomeRunning}

// check refuses values no autobuild writes: an unknown status (a hand
// edit to "exploded" would be read as not complete and the phase run
// again, or as nothing and skipped) or a negative count. The error names
// the field; the caller wraps it in a *CorruptError naming the file.
func (p *Phase) check() error {
	// No status at all is read as pending, as it always was.
	if p.Status != "" && !slices.Contains(phaseStatuses, p.Status) {
		names := make([]string, len(phaseStatuses))
		for i, s := range phaseStatuses {
			names[i] = string(s)
		}
		return fmt.Errorf("field \"status\" of phase %s is %q, not one of %s", p.PhaseID, p.Status, strings.Join(names, ", "))
	}
	for name, v := range map[string]int{"attempt": p.Attempt, "max_attempts": p.MaxAttempts, "batch": p.Batch,
		"tasks.total": p.Tasks.Total, "tasks.completed": p.Tasks.Completed} {
		if v < 0 {
			return fmt.Errorf("field %q of phase %s is %d: it cannot be negative", name, p.PhaseID, v)
		}
	}
	if p.Timestamps.DurationSeconds < 0 {
		return fmt.Errorf("field \"timestamps.duration_seconds\" of phase %s is %v: it cannot be negative", p.PhaseID, p.Timestamps.DurationSeconds)
	}
	for i, a := range p.Attempts {
		if a.Number < 0 {
			return fmt.Errorf("field \"attempts[%d].number\" of phase %s is %d: it cannot be negative", i, p.PhaseID, a.Number)
		}
		if !slices.Contains(attemptOutcomes, a.Outcome) {
			return fmt.Errorf("field \"attempts[%d].outcome\" of phase %s is %q, not one of %s", i, p.PhaseID, a.Outcome,
				strings.Join(attemptOutcomes[1:], ", "))
		}
	}
	return nil
}
