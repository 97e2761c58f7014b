package record

import (
	"sort"

	"github.com/autobuild-sh/autobuild/internal/state"
)

// lastOutcome is the outcome of the phase's last attempt, "" without one.
func lastOutcome(p *state.Phase) string {
	if len(p.Attempts) == 0 {
		return ""
	}
	return p.Attempts[len(p.Attempts)-1].Outcome
}

// attemptEnded reports whether an update of p ended its last attempt: the
// attempt was running before (or is new) and now has a final outcome.
func attemptEnded(before string, p *state.Phase) bool {
	after := lastOutcome(p)
	return after != "" && after != state.OutcomeRunning && (before == state.OutcomeRunning || before == "")
}

// phaseList returns copies of the phases, by id; the caller holds r.mu.
func (r *Recorder) phaseList() []state.Phase {
	out := make([]state.Phase, 0, len(r.phases))
	for _, p := range r.phases {
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PhaseID < out[j].PhaseID })
	return out
}

// historyRunEnd tells the history of the run's end, when this update ended
// it, and keeps the line it returns for the summary; a run that starts again
// drops the last one. The caller holds r.mu.
func (r *Recorder) historyRunEnd(wasRunning bool) {
	switch {
	case r.History == nil:
	case r.run.Status == state.RunRunning:
		r.run.HistoryNote = ""
	case wasRunning:
		r.run.HistoryNote = r.History.RunEnded(*r.run, r.phaseList())
	}
}
