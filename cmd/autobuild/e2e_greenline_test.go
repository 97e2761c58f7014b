package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/failreport"
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
			require.Equal(t, failreport.IntegrationConflict, rep.Type)
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

// kill -9 while a combination is being verified, then --resume: nothing is
// lost, nothing lands twice, and the branch builds.
func TestKillDuringVerificationThenResume(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"auto", "message-only"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			repo := goRepo(t, renamePlan)
			calls := filepath.Join(t.TempDir(), "calls")
			agent := renameAgent(t, calls)
			cmd := command(repo, "plan.md", "--no-tui", "--commit="+mode, "--max-parallel", "2", "--agent", agent)
			cmd.Env = append(cmd.Env, "AUTOBUILD_CRASH_AT=verifying:2b")
			out, _ := cmd.CombinedOutput()
			require.Contains(t, cmd.ProcessState.String(), "killed", string(out))

			r := autobuild(t, repo, "plan.md", "--no-tui", "--resume", "--agent", agent)
			require.Equal(t, 0, r.code, r.String())
			if mode == "message-only" {
				sh := exec.Command("sh", ".autobuild/commits.sh")
				sh.Dir = repo
				b, err := sh.CombinedOutput()
				require.NoError(t, err, string(b))
			}
			require.Equal(t, map[string]int{"1": 1, "2a": 1, "2b": 1}, phaseCommits(t, repo))
			ok, buildOut := goBuilds(t, repo)
			require.True(t, ok, "%s\n%s", buildOut, r.String())
			require.Equal(t, 1, countCalls(t, calls, "2a"), "2A landed before the kill and did not run again")
		})
	}
}

// Your own commit on the branch mid-run breaks the build: the phase that
// lands after it is not blamed (no integration_conflict, no retry); the run
// halts naming your commits and the gate, and the phase's commit is not
// on your branch.
func TestYourCommitThatBreaksTheBuildIsNotBlamedOnAPhase(t *testing.T) {
	t.Parallel()
	planText := "# Two\n\n| Phase | Name | Depends On |\n|---|---|---|\n| 1A | Sub | - |\n| 1B | Double | - |\n\n" +
		"## Phase 1A: Sub\n\n## Phase 1B: Double\n\n## Quality Gates\n\n- build: `go build ./...`\n"
	repo := goRepo(t, planText)
	sync := t.TempDir()
	agent := agentScript(t, `case "$AUTOBUILD_PHASE_ID" in
1a) printf 'package calc\n\nfunc Sub(a, b int) int { return a - b }\n' > calc/sub.go ;;
1b) touch `+sync+`/ready
    while ! test -f `+sync+`/go; do sleep 0.05; done
    printf 'package calc\n\nfunc Double(x int) int { return Add(x, x) }\n' > calc/double.go ;;
esac
`)
	cmd := command(repo, "plan.md", "--no-tui", "--commit=auto", "--max-parallel", "2", "--agent", agent)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Start())
	waitFor(t, "phase 1A to land and 1B to start", 30*time.Second, func() bool {
		_, err := os.Stat(filepath.Join(sync, "ready"))
		return err == nil && phaseCommits(t, repo)["1a"] == 1
	})
	writeFile(t, filepath.Join(repo, "calc", "broken.go"), "package calc\n\nfunc Broken() int { return missing }\n")
	git(t, repo, "add", "calc/broken.go")
	git(t, repo, "commit", "-q", "-m", "my own change")
	writeFile(t, filepath.Join(sync, "go"), "")
	err := cmd.Wait()
	require.Error(t, err, out.String())
	require.Equal(t, 1, cmd.ProcessState.ExitCode(), out.String())

	p := loadPhase(t, repo, "1b")
	require.Equal(t, state.PhaseFailed, p.Status)
	require.Len(t, p.Attempts, 1, "not retried: not the phase's failure")
	require.Equal(t, failreport.BranchChanged, p.Error.Type)
	require.Contains(t, p.Error.Message, "go build ./...")
	require.Contains(t, p.Error.Message, "your commits")
	require.Zero(t, phaseCommits(t, repo)["1b"])
}
