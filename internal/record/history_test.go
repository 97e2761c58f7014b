package record

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// fakeHistory counts what the recorder tells the history.
type fakeHistory struct {
	attempts []string // "phase:outcome"
	ends     []state.RunStatus
}

func (f *fakeHistory) AttemptEnded(_ state.Run, p state.Phase) {
	f.attempts = append(f.attempts, string(p.PhaseID)+":"+p.Attempts[len(p.Attempts)-1].Outcome)
}

func (f *fakeHistory) RunEnded(run state.Run, _ []state.Phase) string {
	f.ends = append(f.ends, run.Status)
	return "note for " + string(run.Status)
}

// The history hears of each attempt once, when it ends, and of the run's
// end once; the note it returns lands in run.json.
func TestRecorderTellsTheHistory(t *testing.T) {
	t.Parallel()
	store := state.Open(t.TempDir())
	require.NoError(t, store.Init())
	rec := New(store, nil, time.Now, &state.Run{Status: state.RunHalted, HistoryNote: "old"},
		map[phaseid.ID]*state.Phase{"1": {PhaseID: "1"}})
	h := &fakeHistory{}
	rec.History = h

	rec.UpdateRun(func(r *state.Run) { r.Status = state.RunRunning })
	require.Empty(t, h.ends, "starting is no end")
	require.Empty(t, rec.RunCopy().HistoryNote, "a run that starts again drops the last note")

	start := func() {
		rec.Phase("1", func(p *state.Phase) {
			p.Attempts = append(p.Attempts, state.Attempt{Number: len(p.Attempts) + 1, Outcome: state.OutcomeRunning})
		})
	}
	end := func(outcome string) {
		rec.Phase("1", func(p *state.Phase) { p.Attempts[len(p.Attempts)-1].Outcome = outcome })
	}
	start()
	rec.Phase("1", func(p *state.Phase) { p.LastOutput = "working" })
	require.Empty(t, h.attempts, "a running attempt has not ended")
	end(state.OutcomeFailed)
	rec.Phase("1", func(p *state.Phase) { p.Status = state.PhaseFailed })
	start()
	end(state.OutcomeComplete)
	rec.Phase("1", func(p *state.Phase) { p.Status = state.PhaseComplete })
	require.Equal(t, []string{"1:failed", "1:complete"}, h.attempts, "once per attempt, when it ends")

	rec.UpdateRun(func(r *state.Run) { r.Status = state.RunComplete })
	rec.UpdateRun(func(r *state.Run) { r.Status = state.RunComplete })
	require.Equal(t, []state.RunStatus{state.RunComplete}, h.ends, "once per end")
	run, err := store.LoadRun()
	require.NoError(t, err)
	require.Equal(t, "note for complete", run.HistoryNote)
}
