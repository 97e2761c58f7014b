package state

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/failreport"
)

// seedRun and seedPhase are real state files, as a run writes them.
func seedFiles(t testing.TB) (run, phase []byte) {
	t.Helper()
	dir := t.TempDir()
	s := Open(dir)
	now := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	require.NoError(t, s.SaveRun(&Run{PlanPath: "plan.md", PlanHash: "abc", PlanTitle: "T", CommitMode: "auto",
		Agents: []string{"claude"}, AgentSpecs: []string{"claude"}, Branch: "main", BaseCommit: "0123456789abcdef",
		Status: RunHalted, HaltReason: "phase 2A failed", PID: 42, Started: now, Updated: now, Finished: &now, RunID: "20261124-100000-abcdef"}))
	require.NoError(t, s.SavePhase(&Phase{PhaseID: "2a", DisplayID: "2A", PhaseName: "Api", Batch: 1, Status: PhaseFailed,
		Attempt: 2, MaxAttempts: 2, Attempts: []Attempt{{Number: 1, Agent: "claude", Started: now, Outcome: OutcomeFailed}},
		Error:  &failreport.Report{Type: failreport.TestFailure, Message: "1 test failing", Retryable: true},
		Commit: &Commit{SHA: "0123456789abcdef", Message: "feat: x\n\nAutobuild-Phase: 2a\n"}}))
	run, err := os.ReadFile(s.RunPath())
	require.NoError(t, err)
	phase, err = os.ReadFile(s.PhasePath("2a"))
	require.NoError(t, err)
	return run, phase
}

// FuzzStateReaders feeds arbitrary run.json and phase file contents to the
// readers every command uses (LoadRun, LoadPhases, Snapshot): they never
// panic, a file they refuse is a *CorruptError naming it, and what they
// accept survives a save and a load unchanged.
func FuzzStateReaders(f *testing.F) {
	run, phase := seedFiles(f)
	f.Add(run, phase)
	f.Add([]byte(`{"schema_version": 99}`), phase)
	f.Add([]byte(`{"status": "running", "pid": -1, "started": "not a time"}`), []byte(`{"phase_id": ""}`))
	f.Add([]byte(`{`), []byte(`null`))
	f.Add([]byte(`{"phase_id": "../../etc"}`), []byte(`{"phase_id": "x", "attempts": [{}], "error": {"type": 3}}`))
	f.Add(run[:len(run)/2], phase[:len(phase)/3])
	f.Fuzz(func(t *testing.T, runData, phaseData []byte) {
		dir := t.TempDir()
		s := Open(dir)
		require.NoError(t, s.Init())
		require.NoError(t, os.WriteFile(s.RunPath(), runData, 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(s.PhasesDir(), "phase-x.json"), phaseData, 0o644))

		r, runErr := s.LoadRun()
		checkRefusal(t, runErr)
		if runErr == nil {
			require.NoError(t, s.SaveRun(r)) // sets a zero schema_version
			roundTrip(t, r, func() (any, error) { return s.LoadRun() })
		}
		phases, phasesErr := s.LoadPhases()
		checkRefusal(t, phasesErr)
		for _, p := range phases {
			if p.PhaseID == "" {
				continue // not savable: SavePhase refuses it
			}
			require.NoError(t, s.SavePhase(p))
			roundTrip(t, p, func() (any, error) { return s.LoadPhase(p.PhaseID) })
		}
		if runErr == nil && phasesErr == nil {
			// Only now: Snapshot waits and reads again after an error.
			_, err := s.Snapshot()
			require.NoError(t, err)
		}
	})
}

func checkRefusal(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	var ce *CorruptError
	require.ErrorAs(t, err, &ce, "a refused file is named as corrupt: %v", err)
	require.NotEmpty(t, ce.Error())
}

// roundTrip checks that v, once saved, loads as v again.
func roundTrip(t *testing.T, v any, load func() (any, error)) {
	t.Helper()
	want, err := json.Marshal(v)
	require.NoError(t, err)
	got, err := load()
	require.NoError(t, err)
	again, err := json.Marshal(got)
	require.NoError(t, err)
	require.JSONEq(t, string(want), string(again))
}
