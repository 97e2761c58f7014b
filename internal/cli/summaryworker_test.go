package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// The plain printer's end-of-run box is read from the state files: the
// workers written on the phase files' attempts (--executor temporal) reach
// it, cleaned of what a worker on another machine put in its name.
func TestHeadlessBoxNamesTheWorkersFromTheStateFiles(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, ".autobuild", "phases"), 0o755))
	st := state.Open(root)
	t0 := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	run := &state.Run{SchemaVersion: 1, PlanPath: "plan.md", CommitMode: "auto", Branch: "main",
		Status: state.RunHalted, HaltReason: "Phase 2 failed after retry (test_failure)", Started: t0, Updated: t0}
	require.NoError(t, st.SaveRun(run))
	landed := &state.Phase{PhaseID: "1", DisplayID: "1", PhaseName: "One", Status: state.PhaseComplete, Attempt: 1, MaxAttempts: 2,
		Attempts: []state.Attempt{{Number: 1, Outcome: state.OutcomeComplete, Worker: "build-7:4242"}}}
	failed := &state.Phase{PhaseID: "2", DisplayID: "2", PhaseName: "Two", Status: state.PhaseFailed, Attempt: 2, MaxAttempts: 2,
		Error: &failreport.Report{Type: failreport.TestFailure, Message: "test gate failed", Retryable: true},
		Attempts: []state.Attempt{{Number: 1, Outcome: state.OutcomeFailed, Worker: "build-7:4242"},
			{Number: 2, Outcome: state.OutcomeFailed, Worker: "build-9\x1b]0;owned\x07:311"}}}
	require.NoError(t, st.SavePhases([]*state.Phase{landed, failed}))
	o := &runOptions{commands: func(mode string) string { return "autobuild plan.md " + mode }}

	out := renderSummary(root, o, 80)
	require.Contains(t, out, "Error: test_failure on worker build-9:311")
	require.NotContains(t, out, "\x1b")

	run.Status, run.Finished = state.RunComplete, &t0
	require.NoError(t, st.SaveRun(run))
	failed.Status, failed.Error = state.PhaseComplete, nil
	failed.Attempts[1].Outcome = state.OutcomeComplete
	require.NoError(t, st.SavePhase(failed))
	out = renderSummary(root, o, 80)
	require.Contains(t, out, "Workers: build-7:4242 (1 phase), build-9:311 (1).", strings.TrimSpace(out))
}
