package state

import (
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

func TestSnapshot(t *testing.T) {
	t.Parallel()
	s := Open(t.TempDir())
	_, err := s.Snapshot()
	require.ErrorIs(t, err, ErrNoRun)

	require.NoError(t, s.SaveRun(&Run{PlanPath: "PLAN.md", Status: RunRunning}))
	for _, p := range []*Phase{
		{PhaseID: "3", Batch: 2}, {PhaseID: "10", Batch: 1}, {PhaseID: "2b", Batch: 1},
		{PhaseID: "2a", Batch: 1}, {PhaseID: "0", Batch: 0},
	} {
		require.NoError(t, s.SavePhase(p))
	}
	snap, err := s.Snapshot()
	require.NoError(t, err)
	require.Equal(t, "PLAN.md", snap.Run.PlanPath)
	var ids []phaseid.ID
	for _, p := range snap.Phases {
		ids = append(ids, p.PhaseID)
	}
	require.Equal(t, []phaseid.ID{"0", "2a", "2b", "10", "3"}, ids)

	require.NoError(t, os.WriteFile(s.PhasePath("3"), []byte("{"), 0o644))
	_, err = s.Snapshot()
	var ce *CorruptError
	require.True(t, errors.As(err, &ce), "a corrupt file is still reported after the retry")
}

func TestNaturalLess(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b phaseid.ID
		less bool
	}{
		{"1", "2", true},
		{"2", "10", true},
		{"10", "2", false},
		{"2", "2a", true},
		{"2a", "2b", true},
		{"2b", "2a", false},
		{"2a", "10", true},
		{"a", "b", true},
		{"02", "2", false},
		{"2", "02", false},
		{"x9", "x10", true},
		{"", "0", true},
		{"0", "", false},
	}
	for _, tt := range tests {
		require.Equal(t, tt.less, NaturalLess(tt.a, tt.b), "%q < %q", tt.a, tt.b)
	}
}
