package history

import (
	"fmt"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// noteRuns is how many of a phase's most recent runs Note looks at.
const noteRuns = 10

// Note is the one line the complete or halt summary takes from the history:
// for the phase of this session that failed with the same type in the most
// of its recent runs (at least two of them, this one included), "phase 2B
// has failed with test_failure in 3 of its last 4 runs". It returns "" when
// no failure of this session repeats an earlier run's: one failure is news
// the summary already gives.
func Note(recs []Record, end Record) string {
	// The session's failures: the last failure type of each phase.
	failed := map[phaseid.ID]string{}
	var order []phaseid.ID
	for _, r := range recs {
		if r.Kind != KindAttempt || r.Session != end.Session || r.RunID != end.RunID || r.Outcome != state.OutcomeFailed {
			continue
		}
		if _, ok := failed[r.PhaseID]; !ok {
			order = append(order, r.PhaseID)
		}
		failed[r.PhaseID] = r.FailureType
	}
	best, bestN, bestOf := "", 0, 0
	for _, id := range order {
		n, of, label := failedRuns(recs, end.PlanPath, id, failed[id])
		if n >= 2 && (n > bestN || (n == bestN && of < bestOf)) {
			best = fmt.Sprintf("phase %s has failed with %s in %s", label, failed[id], inRuns(n, of))
			bestN, bestOf = n, of
		}
	}
	return best
}

// failedRuns counts, among the last noteRuns runs of plan that ran phase id,
// those in which it failed with type typ; of is how many runs were looked at.
func failedRuns(recs []Record, plan string, id phaseid.ID, typ string) (n, of int, label phaseid.Display) {
	var runs []string
	seen, hit := map[string]bool{}, map[string]bool{}
	for _, r := range recs {
		if r.Kind != KindAttempt || r.PlanPath != plan || r.PhaseID != id {
			continue
		}
		label = r.Label()
		if !seen[r.RunID] {
			seen[r.RunID] = true
			runs = append(runs, r.RunID)
		}
		if r.Outcome == state.OutcomeFailed && r.FailureType == typ {
			hit[r.RunID] = true
		}
	}
	if len(runs) > noteRuns {
		runs = runs[len(runs)-noteRuns:]
	}
	for _, run := range runs {
		if hit[run] {
			n++
		}
	}
	return n, len(runs), label
}

func inRuns(n, of int) string {
	if n == of {
		return fmt.Sprintf("each of its last %d runs", of)
	}
	return fmt.Sprintf("%d of its last %d runs", n, of)
}
