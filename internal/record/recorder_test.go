package record

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// An update that changes nothing writes nothing: markUnrun leaves the files
// of the many pending phases of an interrupted large plan alone.
func TestRecorderPhaseIfWritesOnlyChanges(t *testing.T) {
	store := state.Open(t.TempDir())
	require.NoError(t, store.Init())
	ps := &state.Phase{PhaseID: "1", Status: state.PhasePending}
	rec := New(store, nil, time.Now, &state.Run{}, map[phaseid.ID]*state.Phase{"1": ps})

	rec.PhaseIf("1", func(p *state.Phase) bool { return false })
	_, err := store.LoadPhase("1")
	require.ErrorIs(t, err, state.ErrNoPhase, "an unchanged phase is not written")

	rec.PhaseIf("1", func(p *state.Phase) bool { p.Status = state.PhaseBlocked; return true })
	got, err := store.LoadPhase("1")
	require.NoError(t, err)
	require.Equal(t, state.PhaseBlocked, got.Status)
}

// The worker that makes an attempt is written on the attempt in the phase
// file; the worker that takes it over replaces it; a repeat writes nothing.
func TestRecorderAttemptWorker(t *testing.T) {
	store := state.Open(t.TempDir())
	require.NoError(t, store.Init())
	now := time.Date(2026, 11, 27, 5, 0, 0, 0, time.UTC)
	ps := &state.Phase{PhaseID: "2a", DisplayID: "2A", Status: state.PhasePending}
	rec := New(store, nil, func() time.Time { return now }, &state.Run{}, map[phaseid.ID]*state.Phase{"2a": ps})
	rec.AttemptWorker("2a", "w1") // no attempt yet: nothing to name
	_, err := store.LoadPhase("2a")
	require.ErrorIs(t, err, state.ErrNoPhase)

	rec.AttemptStarted("2a", 1, 2, "sim", now, "", "log")
	rec.AttemptWorker("2a", "w1")
	got, err := store.LoadPhase("2a")
	require.NoError(t, err)
	require.Equal(t, "w1", got.Attempts[0].Worker)

	rec.AttemptWorker("2a", "w2")
	got, err = store.LoadPhase("2a")
	require.NoError(t, err)
	require.Equal(t, "w2", got.Attempts[0].Worker, "the worker that took the attempt over")

	rec.AttemptStarted("2a", 2, 2, "sim", now, "", "log")
	got, err = store.LoadPhase("2a")
	require.NoError(t, err)
	require.Equal(t, "w2", got.Attempts[0].Worker)
	require.Empty(t, got.Attempts[1].Worker, "a new attempt's worker is not known yet")
}
