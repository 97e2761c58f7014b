package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// The demo is what a new user sees first: it must really run, retry 2B and
// leave a repository whose own tests pass.
func TestDemoRunsToCompletion(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := autobuild(t, dir, "demo", "--no-tui", "--dir", dir)
	require.Equal(t, 0, r.code, r.String())
	for _, want := range []string{"PHASE 2B FAILED - test_failure", "PHASE 2B RETRYING", "PHASE 2B COMPLETE",
		"AUTOBUILD COMPLETE", "The demo repository is"} {
		require.Contains(t, r.stdout, want)
	}
	repo := filepath.Join(dir, "calc")
	require.Equal(t, map[string]int{"0": 1, "1": 1, "2a": 1, "2b": 1, "2c": 1, "3": 1}, phaseCommits(t, repo))
	require.Empty(t, git(t, repo, "status", "--porcelain"))
}

func TestDemoHaltThenFixThenResume(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := autobuild(t, dir, "demo", "--no-tui", "--halt", "--dir", dir)
	require.Equal(t, 1, r.code, r.String())
	require.Contains(t, r.stdout, "AUTOBUILD HALTED")
	require.Contains(t, r.stdout, "Blocked by: 2B")
	repo := filepath.Join(dir, "calc")
	fix, err := os.ReadFile(filepath.Join(dir, "fix", "format.go"))
	require.NoError(t, err)
	writeFile(t, filepath.Join(repo, "calc", "format.go"), string(fix))
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "fix: write Format")
	r = autobuild(t, repo, "plan.md", "--no-tui", "--resume", "--agent", "sim", "--scenario", filepath.Join(dir, "scenario.json"))
	require.Equal(t, 0, r.code, r.String())
	require.Contains(t, r.stdout, "AUTOBUILD COMPLETE")
}
