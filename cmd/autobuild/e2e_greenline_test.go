package main

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// renamePlan is 1 → (2A ∥ 2B): 2A renames calc.Add to Sum, 2B adds a
// caller of Add in a new file. Each builds on its own base; together they
// do not.
const renamePlan = "# Rename against a caller\n\n" +
	"| Phase | Name | Depends On |\n|---|---|---|\n" +
	"| 1 | Sub | - |\n| 2A | Rename Add | 1 |\n| 2B | Double | 1 |\n\n" +
	"## Phase 1: Sub\n\n## Phase 2A: Rename Add\n\n## Phase 2B: Double\n\n" +
	"## Quality Gates\n\n- build: `go build ./...`\n- test: `go test ./...`\n"

// goRepo is a repository with a Go module whose calc.Add exists.
func goRepo(t *testing.T, planText string) string {
	t.Helper()
	repo := newRepo(t, planText)
	writeFile(t, filepath.Join(repo, "go.mod"), "module example.com/calc\n\ngo 1.21\n")
	writeFile(t, filepath.Join(repo, "calc", "calc.go"), "package calc\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "calc")
	return repo
}

// renameAgent: 2A renames Add; 2B (a moment later, so that it lands
// second) calls whichever of Add and Sum its tree has. calls logs each run.
func renameAgent(t *testing.T, calls string) string {
	return agentScript(t, `echo "$AUTOBUILD_PHASE_ID $AUTOBUILD_ATTEMPT" >> `+calls+`
case "$AUTOBUILD_PHASE_ID" in
1) printf 'package calc\n\nfunc Sub(a, b int) int { return a - b }\n' > calc/sub.go ;;
2a) sed -i 's/func Add/func Sum/; s/^\/\/ Add adds/\/\/ Sum adds/' calc/calc.go ;;
2b) sleep 1
    f=Add; grep -q 'func Sum' calc/calc.go && f=Sum
    printf 'package calc\n\nfunc Double(x int) int { return %s(x, x) }\n' "$f" > calc/double.go ;;
esac
`)
}

// goBuilds reports whether the repository's work tree builds.
func goBuilds(t *testing.T, repo string) (bool, string) {
	t.Helper()
	cmd := exec.Command("go", "build", "./...")
	cmd.Dir = repo
	out, err := cmd.CombinedOutput()
	return err == nil, string(out)
}

// The rename-versus-caller case: each phase is green alone; their
// combination is verified before the user's branch moves, the one that
// lands second is blamed with integration_conflict, and its retry starts
// from the current tip, so the branch builds at the end.
func TestCombinationIsVerifiedBeforeLanding(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ mode, schedule string }{
		{"auto", "batches"}, {"message-only", "batches"}, {"single", "eager"},
	} {
		t.Run(tc.mode+"-"+tc.schedule, func(t *testing.T) {
			t.Parallel()
			repo := goRepo(t, renamePlan)
			calls := filepath.Join(t.TempDir(), "calls")
			r := autobuild(t, repo, "plan.md", "--no-tui", "--commit="+tc.mode, "--schedule="+tc.schedule,
				"--max-parallel", "2", "--agent", renameAgent(t, calls))
			require.Equal(t, 0, r.code, r.String())
			ok, out := goBuilds(t, repo)
			require.True(t, ok, "the branch builds after the run: %s\n%s", out, r.String())

			p := loadPhase(t, repo, "2b")
			require.Equal(t, state.PhaseComplete, p.Status)
			require.Len(t, p.Attempts, 2, "2B's first attempt broke the build on top of 2A")
			rep := p.Attempts[0].Error
			require.NotNil(t, rep)
			require.Equal(t, failure.IntegrationConflict, rep.Type)
			require.True(t, rep.Retryable)
			require.Contains(t, rep.Message, "2A")
			require.Contains(t, rep.Message, "2B")
			require.Equal(t, "build", rep.Gate)
			require.Contains(t, rep.GateOutput, "undefined: Add")
			require.Contains(t, rep.Details, "calc/calc.go")
			require.Contains(t, rep.Details, "calc/double.go")
			require.Equal(t, 1, countCalls(t, calls, "2a"))
			require.Contains(t, r.stdout, "PHASE 2B VERIFYING - on top of 2A")
			require.Contains(t, r.stdout, "1 conflict found and retried")
		})
	}
}

// With --verify=off the combination is not verified, and the summary says so.
func TestVerifyOffSaysTheCombinationWasNotVerified(t *testing.T) {
	t.Parallel()
	repo := goRepo(t, renamePlan)
	calls := filepath.Join(t.TempDir(), "calls")
	r := autobuild(t, repo, "plan.md", "--no-tui", "--commit=auto", "--verify=off", "--max-parallel", "2",
		"--agent", renameAgent(t, calls))
	require.Equal(t, 0, r.code, r.String())
	require.Contains(t, r.stdout, "not verified")
	require.NotContains(t, r.stdout, "VERIFYING")
	ok, _ := goBuilds(t, repo)
	require.False(t, ok, "--verify=off keeps the old behaviour")
}
