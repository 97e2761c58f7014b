package state

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/stretchr/testify/require"
)

func fullPhase() *Phase {
	now := time.Date(2026, 11, 22, 10, 30, 0, 0, time.UTC)
	rep := &failreport.Report{Type: failreport.TestFailure, Message: "test gate failed", Retryable: true, Attempt: 1,
		FailingTests: []string{"TestAdd"}, SuggestedActions: []string{"fix it"}}
	return &Phase{
		PhaseID: "2a", DisplayID: "2A", PhaseName: "Backend <API>", Batch: 2, Status: PhaseFailed,
		Attempt: 1, MaxAttempts: 2,
		Timestamps:   Timestamps{Started: &now, Completed: &now, DurationSeconds: 12.5},
		Dependencies: Dependencies{DependsOn: []phaseid.ID{"1"}, ParallelWith: []phaseid.ID{"2b"}, Blocks: []phaseid.ID{"3"}},
		Agent:        "sim", Tasks: Tasks{Total: 5, Completed: 3},
		QualityGates: map[string]GateResult{"test": {Command: "go test ./...", Status: GateFailed, ExitCode: 1}},
		Verification: Verification{AgentClaimed: "complete", FreshVerification: "failed"},
		Commit:       &Commit{Message: "feat(api): x", SHA: "abc", FilesCreated: []string{"a.go"}},
		Attempts: []Attempt{{Number: 1, Agent: "sim", Started: now, Completed: &now, Outcome: OutcomeFailed,
			LogPath: ".autobuild/logs/phase-2a.attempt-1.log", Error: rep, Worker: "build-7:4242"}},
		Error:     rep,
		BlockedBy: []phaseid.Display{"1"}, LastOutput: "ok", Worktree: ".autobuild/worktrees/phase-2a",
	}
}

func TestPhaseRoundTrip(t *testing.T) {
	t.Parallel()
	s := Open(t.TempDir())
	in := fullPhase()
	require.NoError(t, s.SavePhase(in), "SavePhase creates the directory")
	out, err := s.LoadPhase("2a")
	require.NoError(t, err)
	require.Equal(t, in, out)

	data, err := os.ReadFile(s.PhasePath("2a"))
	require.NoError(t, err)
	require.Contains(t, string(data), `"phase_name": "Backend <API>"`, "no HTML escaping")
	require.Contains(t, string(data), "\n  \"phase_id\": \"2a\",")
	require.Contains(t, string(data), `"worker": "build-7:4242"`, "a remote attempt names its worker")
}

// A local attempt has no worker, and its file says nothing of one: the
// files of local runs are as they were.
func TestLocalAttemptHasNoWorkerField(t *testing.T) {
	t.Parallel()
	s := Open(t.TempDir())
	in := fullPhase()
	in.Attempts[0].Worker = ""
	require.NoError(t, s.SavePhase(in))
	data, err := os.ReadFile(s.PhasePath("2a"))
	require.NoError(t, err)
	require.NotContains(t, string(data), `"worker"`)
}

func TestLoadPhaseMissing(t *testing.T) {
	t.Parallel()
	s := Open(t.TempDir())
	_, err := s.LoadPhase("3")
	require.ErrorIs(t, err, ErrNoPhase)
	require.NoError(t, s.RemovePhase("3"), "removing a missing phase is fine")
}

func TestLoadPhases(t *testing.T) {
	t.Parallel()
	s := Open(t.TempDir())
	phases, err := s.LoadPhases()
	require.NoError(t, err)
	require.Empty(t, phases, "no directory, no phases")

	for _, id := range []phaseid.ID{"1", "2a", "../odd id"} {
		require.NoError(t, s.SavePhase(&Phase{PhaseID: id, Status: PhasePending}))
	}
	// Things that are not phase files are ignored.
	require.NoError(t, os.WriteFile(filepath.Join(s.PhasesDir(), ".phase-1.json.tmp-123"), []byte("{"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(s.PhasesDir(), "notes.txt"), []byte("x"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(s.PhasesDir(), "phase-dir.json"), 0o755))
	// A hand-made copy of a phase file loses to the original.
	require.NoError(t, os.WriteFile(filepath.Join(s.PhasesDir(), "phase-0copy.json"),
		[]byte(`{"phase_id": "2a", "status": "complete"}`), 0o644))

	phases, err = s.LoadPhases()
	require.NoError(t, err)
	require.Len(t, phases, 3)
	require.Equal(t, phaseid.ID("../odd id"), phases["../odd id"].PhaseID)
	require.Equal(t, PhasePending, phases["2a"].Status)

	require.NoError(t, s.RemovePhase("2a"))
	phases, err = s.LoadPhases()
	require.NoError(t, err)
	require.Len(t, phases, 3, "the copy stands in once the original is gone")
	require.Equal(t, PhaseComplete, phases["2a"].Status)
}

func TestLoadPhasesCorrupt(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, content, want string }{
		{"truncated", `{"phase_id": "2a"`, "unexpected end of JSON input"},
		{"no id", `{"status": "pending"}`, "no phase_id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := Open(t.TempDir())
			require.NoError(t, s.SavePhase(&Phase{PhaseID: "1"}))
			require.NoError(t, os.WriteFile(s.PhasePath("2a"), []byte(tt.content), 0o644))
			_, err := s.LoadPhases()
			var ce *CorruptError
			require.True(t, errors.As(err, &ce), "got %v", err)
			require.Equal(t, ".autobuild/phases/phase-2a.json is corrupt ("+tt.want+"): fix or delete it, or start over with --fresh", err.Error())

			_, err = s.LoadPhase("2a")
			require.True(t, errors.As(err, &ce))
		})
	}
}

// SavePhases writes every phase's file, the last of a phase given twice,
// and leaves no temporary file behind.
func TestSavePhases(t *testing.T) {
	t.Parallel()
	s := Open(t.TempDir())
	var ps []*Phase
	for i := range 40 {
		ps = append(ps, &Phase{PhaseID: phaseid.ID(fmt.Sprint(i)), Status: PhaseBlocked, BlockedBy: []phaseid.Display{"0"}})
	}
	ps = append(ps, &Phase{PhaseID: "3", Status: PhasePending})
	require.NoError(t, s.SavePhases(ps))
	got, err := s.LoadPhases()
	require.NoError(t, err)
	require.Len(t, got, 40)
	require.Equal(t, PhaseBlocked, got["39"].Status)
	require.Equal(t, []phaseid.Display{"0"}, got["39"].BlockedBy)
	require.Equal(t, PhasePending, got["3"].Status, "the last of a phase given twice")
	entries, err := os.ReadDir(s.PhasesDir())
	require.NoError(t, err)
	require.Len(t, entries, 40, "no temporary file is left")

	require.NoError(t, Open(t.TempDir()).SavePhases(nil))
	require.Error(t, s.SavePhases([]*Phase{{PhaseID: "1"}, {}}), "a phase without an id is refused")
}

// Attack 7 (issue 25): a phase file hand-edited to an unknown status or an
// impossible value is refused as corrupt, naming the file and the field,
// like a wrong type is (exit 3 at start): "exploded" would have re-run a
// complete phase, or let --resume exit 0 without a word.
func TestAttackInvalidPhaseFileIsRefused(t *testing.T) {
	t.Parallel()
	tests := []struct{ content, want string }{
		{`{"phase_id": "2b", "status": "exploded", "attempt": 1}`, `field "status" of phase 2b is "exploded"`},
		{`{"phase_id": "2b", "status": "failed", "attempt": -7}`, `field "attempt" of phase 2b is -7`},
		{`{"phase_id": "2b", "status": "failed", "attempts": [{"number": 1, "outcome": "boom"}]}`, `field "attempts[0].outcome" of phase 2b is "boom"`},
	}
	for _, tt := range tests {
		s := Open(t.TempDir())
		require.NoError(t, os.MkdirAll(s.PhasesDir(), 0o755))
		require.NoError(t, os.WriteFile(s.PhasePath("2b"), []byte(tt.content), 0o644))
		for _, load := range []func() error{
			func() error { _, err := s.LoadPhases(); return err },
			func() error { _, err := s.LoadPhase("2b"); return err },
		} {
			err := load()
			var ce *CorruptError
			require.True(t, errors.As(err, &ce), "%s: got %v", tt.content, err)
			require.Contains(t, err.Error(), ".autobuild/phases/phase-2b.json is corrupt ("+tt.want)
		}
	}
}
