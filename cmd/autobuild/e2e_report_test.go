package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/history"
	"github.com/autobuild-sh/autobuild/internal/metrics"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// fast runs autobuild with the simulated agent ten times faster.
func fast(t *testing.T, dir string, args ...string) result {
	t.Helper()
	cmd := command(dir, args...)
	cmd.Env = append(cmd.Env, "AUTOBUILD_SIM_SPEED=10")
	return runCmd(t, cmd)
}

func readHistory(t *testing.T, repo string) []history.Record {
	t.Helper()
	recs, warnings, err := history.Read(filepath.Join(repo, ".autobuild", "history.jsonl"))
	require.NoError(t, err)
	require.Empty(t, warnings)
	return recs
}

// A halt, a person's fix and resume, then --fresh: the history keeps all
// three sessions, and the report counts them as two runs.
func TestHistorySurvivesFreshAndFeedsTheReport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := fast(t, dir, "demo", "--no-tui", "--halt", "--dir", dir)
	require.Equal(t, 1, r.code, r.String())
	repo := filepath.Join(dir, "calc")
	halted := readHistory(t, repo)
	require.Equal(t, history.KindRunEnd, halted[len(halted)-1].Kind)
	require.Equal(t, []phaseid.Display{"2B"}, halted[len(halted)-1].FailedPhases)
	typ := "" // how the classifier names 2B's failure
	for _, rec := range halted {
		if rec.PhaseID == "2b" && rec.Outcome == "failed" {
			typ = rec.FailureType
		}
	}
	require.NotEmpty(t, typ)

	fix, err := os.ReadFile(filepath.Join(dir, "fix", "format.go"))
	require.NoError(t, err)
	writeFile(t, filepath.Join(repo, "calc", "format.go"), string(fix))
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "fix: write Format")
	r = fast(t, repo, "plan.md", "--no-tui", "--resume")
	require.Equal(t, 0, r.code, r.String())
	resumed := readHistory(t, repo)
	last2B := history.Record{}
	for _, rec := range resumed {
		if rec.PhaseID == "2b" {
			last2B = rec
		}
	}
	require.Equal(t, "complete", last2B.Outcome)
	require.Equal(t, history.RecoveredByResume, last2B.RecoveredBy, "a person fixed it and resumed")
	require.Positive(t, last2B.RecoverySeconds)

	r = fast(t, repo, "plan.md", "--no-tui", "--fresh")
	require.Equal(t, 0, r.code, r.String())
	recs := readHistory(t, repo)
	require.Greater(t, len(recs), len(resumed), "--fresh kept the history and appended to it")
	require.Equal(t, resumed, recs[:len(resumed)])
	runs, sessions := map[string]bool{}, map[string]bool{}
	for _, rec := range recs {
		runs[rec.RunID], sessions[rec.Session] = true, true
	}
	require.Len(t, runs, 2)
	require.Len(t, sessions, 3)

	r = autobuild(t, repo, "report", "--json")
	require.Equal(t, 0, r.code, r.String())
	var rep metrics.Report
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep), r.stdout)
	require.Equal(t, 2, rep.Runs)
	require.Equal(t, 3, rep.Sessions)
	require.Equal(t, 2, rep.Failures, "2B's attempt and its retry, in the halted session")
	require.Equal(t, 1, rep.Escalation.Escalated)
	require.Equal(t, 1, rep.Recovery.ByResume)
	require.Equal(t, 1, rep.Retry.Total)
	require.Zero(t, rep.Retry.Succeeded)
	require.Positive(t, rep.Cost.TotalUSD, "the demo's agent reports usage")

	r = autobuild(t, repo, "report")
	require.Equal(t, 0, r.code, r.String())
	for _, want := range []string{"2 runs (3 sessions), 14 attempts", "Failure rate per run", "Failures by type",
		typ, "0 of 1 retry succeeded", "1 by a person's resume", "1 of 13 phase runs needed a person",
		"2× " + typ + " in 2B"} {
		require.Contains(t, r.stdout, want)
	}
	require.NotContains(t, r.stdout, "\x1b[", "not a terminal: no escape codes")
}
