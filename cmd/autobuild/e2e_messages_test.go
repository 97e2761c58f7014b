package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/failreport"
)

// A retry that the run's budget refuses is not announced: the plain
// printer says BUDGET REACHED and never "RETRYING (attempt 2/2)" for an
// attempt that does not start.
func TestBudgetRefusedRetryIsNotPrinted(t *testing.T) {
	t.Parallel()
	plan := strings.Replace(budgetPlan, "- test: `true`", "- test: `test -f one.txt`", 1)
	repo := newRepo(t, plan)
	scenario := filepath.Join(t.TempDir(), "scenario.json")
	// Phase 1's first attempt claims it is done, writes nothing (its gate
	// fails: a retryable failure) and spends $4 of the run's $3.
	writeFile(t, scenario, `{"phases": {"1": [{"steps": [{"say": "done"}], "result": {"status": "complete",
		"usage": {"input_tokens": 1000, "output_tokens": 100, "cost_usd": 4}}}]}}`)
	r := autobuild(t, repo, "plan.md", "--no-tui", "--commit=auto", "--agent", "sim", "--scenario", scenario,
		"--max-parallel", "1", "--max-cost", "3")
	require.Equal(t, 1, r.code, r.String())
	require.Contains(t, r.stdout, "PHASE 1 FAILED - ")
	require.Contains(t, r.stdout, "BUDGET REACHED - the run spent $4.00, reaching its budget of $3.00 (--max-cost)")
	require.NotContains(t, r.stdout, "RETRYING", "the retry never started")
	require.Equal(t, failreport.BudgetExceeded, loadRun(t, repo).HaltType)
	require.Len(t, loadPhase(t, repo, "1").Attempts, 1)
}

// redBasePlan's test gate fails naming TestOld while old.txt exists, and
// TestNew while new.txt does.
const redBasePlan = "# Red\n\n| Phase | Name | Depends On |\n|---|---|---|\n| 1 | One | - |\n\n## Phase 1: One\n\n- [ ] write work.txt\n\n" +
	"## Quality Gates\n\n- test: `rc=0; if test -f old.txt; then echo \"--- FAIL: TestOld (0.00s)\"; rc=1; fi; " +
	"if test -f new.txt; then echo \"--- FAIL: TestNew (0.00s)\"; rc=1; fi; exit $rc`\n"

func redBaseRepo(t *testing.T) string {
	t.Helper()
	repo := newRepo(t, redBasePlan)
	writeFile(t, filepath.Join(repo, "old.txt"), "red\n")
	git(t, repo, "add", "old.txt")
	git(t, repo, "commit", "-q", "-m", "red already")
	return repo
}

// A red base stops the run (exit 3), and the halt summary's first resume
// step says to fix the base; under --allow-red-base the gate that fails
// with only the base's failing test says so instead of a plain PASSED.
func TestRedBaseMessages(t *testing.T) {
	t.Parallel()
	repo := redBaseRepo(t)
	r := autobuild(t, repo, "plan.md", "--no-tui", "--commit=auto", "--agent", "echo work > work.txt")
	require.Equal(t, 3, r.code, r.String())
	steps := r.stdout[strings.Index(r.stdout, "RESUME INSTRUCTIONS"):]
	require.Contains(t, steps, "║ 1. Fix the base first: the quality gates already fail on your branch", r.stdout)
	require.Equal(t, failreport.RedBase, loadRun(t, repo).HaltType)

	repo = redBaseRepo(t)
	r = autobuild(t, repo, "plan.md", "--no-tui", "--commit=auto", "--agent", "echo work > work.txt", "--allow-red-base")
	require.Equal(t, 0, r.code, r.String())
	require.Contains(t, r.stdout, "PHASE 1 GATE test PASSED (only the base's known failures: 1) - ")
	require.Equal(t, 1, loadPhase(t, repo, "1").QualityGates["test"].KnownFailures)
}
