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
