package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/history"
	"github.com/autobuild-sh/autobuild/internal/metrics"
	"github.com/autobuild-sh/autobuild/internal/state"
)

func TestParseSince(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]time.Duration{"90m": 90 * time.Minute, "36h": 36 * time.Hour,
		"7d": 7 * 24 * time.Hour, "2w": 14 * 24 * time.Hour, "1.5d": 36 * time.Hour} {
		got, err := parseSince(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for _, in := range []string{"d", "-1d", "0h", "week", "7"} {
		_, err := parseSince(in)
		require.Error(t, err, in)
	}
}

// reportRepo is a directory with a history: two plans, a torn last line.
func reportRepo(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(root, ".git"), 0o755))
	store := state.Open(root)
	require.NoError(t, store.Init())
	w := history.NewWriter(store.HistoryPath())
	now := time.Now()
	for i, plan := range []string{"docs/plan.md", "docs/plan.md", "other.md"} {
		at := now.Add(time.Duration(i-3) * 24 * time.Hour)
		rec := history.Record{Kind: history.KindAttempt, Time: at, RunID: history.IDTime(at), Session: history.IDTime(at),
			PlanPath: plan, PhaseID: "1", Agent: "sim", Outcome: state.OutcomeFailed, FailureType: "test_failure"}
		require.NoError(t, w.Append(rec))
	}
	f, err := os.OpenFile(store.HistoryPath(), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(`{"v":1,"kind":"att`)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	return root
}

func TestReportCommand(t *testing.T) {
	t.Parallel()
	root := reportRepo(t)
	code, out, errOut := run(t, "report", root)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "3 runs (3 sessions), 3 attempts")
	require.Contains(t, out, "CRITICAL")
	require.Contains(t, out, "Skipped history lines")
	require.Contains(t, out, "history.jsonl line 4 skipped: a torn last line")

	code, out, errOut = run(t, "report", root, "--json", "--plan", "docs/plan.md", "--since", "60h")
	require.Equal(t, 0, code, errOut)
	var rep metrics.Report
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	require.Equal(t, 1, rep.Runs, "the other plan and the run before the window are left out")
	require.Equal(t, "docs/plan.md", rep.Plan)
	require.NotNil(t, rep.Since)
	require.Len(t, rep.Warnings, 1)

	code, _, errOut = run(t, "report", root, "--since", "yesterday")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, `--since "yesterday": not a span: write it as 90m, 36h, 7d or 2w`)
}

func TestReportWithoutHistory(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(root, ".git"), 0o755))
	code, out, errOut := run(t, "report", root)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "No attempts recorded yet")
}
