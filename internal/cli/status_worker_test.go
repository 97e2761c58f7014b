package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/state"
)

// status names the worker of each phase's latest attempt for a run on
// workers (--executor temporal), in a WORKER column; --json has it on the
// attempts. A local run's table has no such column.
func TestMainStatusWorker(t *testing.T) {
	t.Parallel()
	write := func(t *testing.T, worker string) string {
		dir := t.TempDir()
		require.NoError(t, os.Mkdir(filepath.Join(dir, ".git"), 0o755))
		snap := sampleSnapshot()
		store := state.Open(dir)
		require.NoError(t, store.SaveRun(snap.Run))
		for _, p := range snap.Phases {
			if p.Status == state.PhaseComplete {
				p.Attempts = append(p.Attempts, state.Attempt{Number: 1, Agent: "sim", Outcome: state.OutcomeComplete, Worker: worker})
			}
			require.NoError(t, store.SavePhase(p))
		}
		return dir
	}

	dir := write(t, "build-7:4242")
	_, out, errOut := run(t, "status", dir)
	require.Contains(t, out, "WORKER", errOut)
	require.Regexp(t, regexp.MustCompile(`(?m)complete\s+\S+\s+\S+\s+build-7:4242\s`), out)
	_, out, _ = run(t, "status", "--json", dir)
	require.Contains(t, out, `"worker": "build-7:4242"`)

	_, out, _ = run(t, "status", write(t, ""))
	require.NotContains(t, out, "WORKER")
	_, out, _ = run(t, "status", "--json", write(t, ""))
	require.NotContains(t, out, `"worker"`)
}
