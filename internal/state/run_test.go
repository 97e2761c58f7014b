package state

import (
	"errors"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestRunRoundTrip(t *testing.T) {
	t.Parallel()
	s := Open(t.TempDir())
	_, err := s.LoadRun()
	require.ErrorIs(t, err, ErrNoRun)

	now := time.Date(2026, 11, 22, 10, 30, 0, 0, time.UTC)
	in := &Run{
		PlanPath: "docs/plan.md", PlanHash: "abc", PlanTitle: "Plan", CommitMode: "auto",
		Agents: []string{"sim"}, Branch: "main", BaseCommit: "b", IntegrationCommit: "i",
		Status: RunHalted, HaltReason: "phase 2a failed", PID: 42, Started: now, Updated: now, Finished: &now,
	}
	require.NoError(t, s.SaveRun(in))
	require.Equal(t, SchemaVersion, in.SchemaVersion, "SaveRun fills in the schema version")
	out, err := s.LoadRun()
	require.NoError(t, err)
	require.Equal(t, in, out)
}

func TestLoadRunCorrupt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, content, want string
	}{
		{"empty", "", ".autobuild/run.json is corrupt (unexpected end of JSON input): fix or delete it, or start over with --fresh"},
		{"torn", `{"plan_path": "x`, ".autobuild/run.json is corrupt (unexpected end of JSON input): fix or delete it, or start over with --fresh"},
		{"wrong type", `{"pid": "x"}`, ".autobuild/run.json is corrupt ("},
		{"newer schema", `{"schema_version": 99}`, ".autobuild/run.json was written by a newer autobuild (newer schema_version: schema_version 99, this autobuild reads up to 1): upgrade autobuild, or start over with --fresh"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := Open(t.TempDir())
			require.NoError(t, s.Init())
			require.NoError(t, os.WriteFile(s.RunPath(), []byte(tt.content), 0o644))
			run, err := s.LoadRun()
			require.Nil(t, run)
			var ce *CorruptError
			require.True(t, errors.As(err, &ce), "got %v", err)
			require.Equal(t, s.RunPath(), ce.Path)
			require.Contains(t, err.Error(), tt.want)
			require.NotErrorIs(t, err, ErrNoRun)
			if tt.name == "newer schema" {
				require.ErrorIs(t, err, ErrNewerSchema)
			}
		})
	}
}

func TestCommitHasChanges(t *testing.T) {
	t.Parallel()
	var none *Commit
	require.False(t, none.HasChanges())
	require.False(t, (&Commit{Message: "feat: x"}).HasChanges())
	require.True(t, (&Commit{FilesDeleted: []string{"a"}}).HasChanges())
}
