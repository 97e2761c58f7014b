package state

import (
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// A phase without a file of its own is read from initial.json; its own
// file, once written, wins; deleting that file gives the initial state back.
func TestInitialStatesUnderPhaseFiles(t *testing.T) {
	t.Parallel()
	s := Open(t.TempDir())
	require.NoError(t, s.SaveRun(&Run{Status: RunRunning}))
	require.NoError(t, s.SaveInitial([]*Phase{
		{PhaseID: "1", Batch: 1, Status: PhasePending},
		{PhaseID: "2", Batch: 2, Status: PhasePending},
		{PhaseID: "3", Batch: 3, Status: PhaseSkipped},
	}))
	_, err := os.Stat(s.PhasePath("1"))
	require.ErrorIs(t, err, os.ErrNotExist, "no file per phase")

	require.NoError(t, s.SavePhase(&Phase{PhaseID: "2", Batch: 2, Status: PhaseComplete}))
	snap, err := s.Snapshot()
	require.NoError(t, err)
	got := map[phaseid.ID]PhaseStatus{}
	for _, p := range snap.Phases {
		got[p.PhaseID] = p.Status
	}
	require.Equal(t, map[phaseid.ID]PhaseStatus{"1": PhasePending, "2": PhaseComplete, "3": PhaseSkipped}, got)

	p, err := s.LoadPhase("1")
	require.NoError(t, err)
	require.Equal(t, PhasePending, p.Status)
	p, err = s.LoadPhase("2")
	require.NoError(t, err)
	require.Equal(t, PhaseComplete, p.Status)
	_, err = s.LoadPhase("4")
	require.ErrorIs(t, err, ErrNoPhase)

	require.NoError(t, s.RemovePhase("2"))
	p, err = s.LoadPhase("2")
	require.NoError(t, err)
	require.Equal(t, PhasePending, p.Status, "a deleted file means the phase is pending again")
}

func TestCorruptInitialStatesAreReported(t *testing.T) {
	t.Parallel()
	for name, content := range map[string]string{
		"not JSON":      "[{",
		"no phase id":   `[{"status": "pending"}]`,
		"not a list":    `{"phase_id": "1"}`,
		"a null member": `[null]`,
	} {
		s := Open(t.TempDir())
		require.NoError(t, s.Init())
		require.NoError(t, os.WriteFile(s.InitialPath(), []byte(content), 0o644))
		_, err := s.LoadPhases()
		var ce *CorruptError
		require.True(t, errors.As(err, &ce), "%s: %v", name, err)
		_, err = s.LoadPhase("1")
		require.True(t, errors.As(err, &ce), "%s: %v", name, err)
	}
	require.Error(t, Open(t.TempDir()).SaveInitial([]*Phase{{}}), "a phase without an id is refused")
}
