package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// madeElsewhere stands in for an executor on another machine that hands
// the work back as a commit: the commit (name holding text, on the
// attempt's base) is made in git's objects only, and the workspace is
// left at its base with a file that is not the work in it.
func madeElsewhere(t *testing.T, name, text string, gate *failure.GateEvidence) func(a executor.Attempt) executor.Result {
	return func(a executor.Attempt) executor.Result {
		git := func(env []string, stdin string, args ...string) string {
			cmd := exec.Command("git", args...)
			cmd.Dir, cmd.Env, cmd.Stdin = a.Workspace, append(os.Environ(), env...), strings.NewReader(stdin)
			out, err := cmd.Output()
			if err != nil {
				panic("git " + strings.Join(args, " ") + ": " + err.Error())
			}
			return strings.TrimSpace(string(out))
		}
		index := []string{"GIT_INDEX_FILE=" + filepath.Join(t.TempDir(), "index")}
		blob := git(nil, text, "hash-object", "-w", "--stdin")
		git(index, "", "read-tree", a.Base)
		git(index, "", "update-index", "--add", "--cacheinfo", "100644,"+blob+","+name)
		tree := git(index, "", "write-tree")
		commit := git(nil, "", "commit-tree", tree, "-p", a.Base, "-m", "made on a worker")
		if err := os.WriteFile(filepath.Join(a.Workspace, "not-the-work.txt"), []byte("stray\n"), 0o644); err != nil {
			panic(err)
		}
		res := executor.Result{Evidence: failure.Evidence{AgentRan: true, FilesChanged: []string{name}, Gate: gate},
			Gates: map[string]state.GateResult{"test": {Command: "true", Status: state.GatePassed, Passed: true}}, Commit: commit}
		if gate != nil {
			res.Gates["test"] = state.GateResult{Command: "true", Status: state.GateFailed, ExitCode: 1}
		}
		return res
	}
}

// Landing takes a handed-over commit's tree: the phase's commit holds the
// work made elsewhere and nothing the workspace holds, with the phase's own
// message on the line.
func TestLandingTakesAHandedOverCommit(t *testing.T) {
	t.Parallel()
	x := &apartExecutor{scriptedExecutor{results: []func(executor.Attempt) executor.Result{
		madeElsewhere(t, "remote.txt", "made elsewhere\n", nil)}}}
	res, repo, _ := runPlanWith(t, onePhase, "exit 99", func(c *Config) { c.Executor = x })
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	require.Equal(t, "made elsewhere", runGit(t, repo, "show", "HEAD:remote.txt"))
	require.Equal(t, "remote.txt", runGit(t, repo, "diff-tree", "--no-commit-id", "--name-only", "-r", "HEAD"),
		"the workspace's own file did not land")
	require.NotContains(t, runGit(t, repo, "log", "-1", "--format=%B"), "made on a worker", "the phase's message, not the worker's")
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Equal(t, []string{"remote.txt"}, p.Commit.FilesCreated)
}

// A failed attempt's handed-over work is put in the phase's worktree: its
// diff is kept, and the retry continues from it.
func TestAFailedHandedOverCommitIsPutInTheWorktree(t *testing.T) {
	t.Parallel()
	gate := &failure.GateEvidence{Kind: "test", Command: "true", ExitCode: 1, Output: "--- FAIL: TestParse (0.00s)\nFAIL"}
	var sawWork bool
	retry := func(a executor.Attempt) executor.Result {
		_, err := os.Stat(filepath.Join(a.Workspace, "parse.go"))
		sawWork = err == nil
		return madeElsewhere(t, "parse.go", "package parse // fixed\n", nil)(a)
	}
	x := &apartExecutor{scriptedExecutor{results: []func(executor.Attempt) executor.Result{
		madeElsewhere(t, "parse.go", "package parse\n", gate), retry}}}
	res, repo, _ := runPlanWith(t, onePhase, "exit 99", func(c *Config) { c.Executor = x })
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	require.True(t, sawWork, "the retry's workspace holds the failed attempt's work")
	require.Equal(t, "package parse // fixed", runGit(t, repo, "show", "HEAD:parse.go"))
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Equal(t, failreport.TestFailure, p.Attempts[0].Error.Type)
	require.NotEmpty(t, p.Attempts[0].DiffPath)
	diff, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(p.Attempts[0].DiffPath)))
	require.NoError(t, err)
	require.Contains(t, string(diff), "+package parse")
}
