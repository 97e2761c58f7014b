package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func repoRoot(t *testing.T) string {
	wd, err := os.Getwd()
	require.NoError(t, err)
	return filepath.Join(wd, "..", "..")
}

func TestValidateValidPlan(t *testing.T) {
	t.Parallel()
	r := autobuild(t, repoRoot(t), "validate", "testdata/plans/full.md")
	require.Equal(t, 0, r.code, r.String())
	require.Contains(t, r.stdout, "Batch 1")
	require.Regexp(t, `2A\s+\S`, r.stdout)
	// --dry-run prints the same, with flags before or after the plan.
	d := autobuild(t, repoRoot(t), "--dry-run", "testdata/plans/full.md")
	require.Equal(t, 0, d.code, d.String())
	require.Equal(t, r.stdout, d.stdout)
}

func TestValidateInvalidPlanListsEveryProblem(t *testing.T) {
	t.Parallel()
	r := autobuild(t, repoRoot(t), "validate", "testdata/plans/invalid/multi-problem.md")
	require.Equal(t, 2, r.code, r.String())
	lines := 0
	for _, l := range strings.Split(r.stderr, "\n") {
		if strings.HasPrefix(l, "testdata/plans/invalid/multi-problem.md:") && !strings.Contains(l, "warning") {
			lines++
		}
	}
	require.GreaterOrEqual(t, lines, 2, "every problem, with its line: %s", r.stderr)
	require.Empty(t, r.stdout)
}

func TestValidateCycleNamesTheCycle(t *testing.T) {
	t.Parallel()
	r := autobuild(t, repoRoot(t), "validate", "testdata/plans/invalid/cycle.md")
	require.Equal(t, 2, r.code, r.String())
	require.Contains(t, r.stderr, "circular_dependency")
	require.Contains(t, r.stderr, "→")
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	r := autobuild(t, t.TempDir(), "validate")
	require.Equal(t, 2, r.code, r.String())
	r = autobuild(t, t.TempDir(), "--no-such-flag", "plan.md")
	require.Equal(t, 2, r.code, r.String())
	r = autobuild(t, t.TempDir(), "validate", "missing.md")
	require.Equal(t, 2, r.code, r.String())
	require.Contains(t, r.stderr, "missing.md")
}

func TestHelpAndVersion(t *testing.T) {
	t.Parallel()
	r := autobuild(t, t.TempDir(), "--help")
	require.Equal(t, 0, r.code)
	require.Contains(t, r.stdout, "autobuild demo")
	require.Contains(t, r.stdout, "--commit")
	r = autobuild(t, t.TempDir(), "--version")
	require.Equal(t, 0, r.code)
	require.Contains(t, r.stdout, "autobuild version")
}

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
