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
	return madeIn(t, nil, name, text, gate)
}

// madeIn is madeElsewhere for an executor that owns its workspaces: there
// is no workspace, the commit is made in the repository at *repo, on the
// earlier work when the attempt continues it.
func madeIn(t *testing.T, repo *string, name, text string, gate *failure.GateEvidence) func(a executor.Attempt) executor.Result {
	return func(a executor.Attempt) executor.Result {
		dir := a.Workspace
		if repo != nil {
			dir = *repo
		}
		git := func(env []string, stdin string, args ...string) string {
			cmd := exec.Command("git", args...)
			cmd.Dir, cmd.Env, cmd.Stdin = dir, append(os.Environ(), env...), strings.NewReader(stdin)
			out, err := cmd.Output()
			if err != nil {
				panic("git " + strings.Join(args, " ") + ": " + err.Error())
			}
			return strings.TrimSpace(string(out))
		}
		index := []string{"GIT_INDEX_FILE=" + filepath.Join(t.TempDir(), "index")}
		blob := git(nil, text, "hash-object", "-w", "--stdin")
		from := a.Base
		if a.Continues != "" {
			from = a.Continues
		}
		git(index, "", "read-tree", from)
		git(index, "", "update-index", "--add", "--cacheinfo", "100644,"+blob+","+name)
		tree := git(index, "", "write-tree")
		commit := git(nil, "", "commit-tree", tree, "-p", a.Base, "-m", "made on a worker")
		if a.Workspace != "" {
			if err := os.WriteFile(filepath.Join(a.Workspace, "not-the-work.txt"), []byte("stray\n"), 0o644); err != nil {
				panic(err)
			}
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
	requireFirstAttemptsDiff(t, repo, "+package parse")
}

// ownerExecutor is a scriptedExecutor that makes its attempts' workspaces
// itself, on another machine (executor.WorkspaceOwner).
type ownerExecutor struct{ apartExecutor }

func (*ownerExecutor) OwnsWorkspace() bool { return true }

// For an executor that owns its workspaces the phase runner makes no
// worktree and runs no [worktree] setup: the setup command travels in the
// request, a failed attempt's work (a commit) is what the retry continues
// and what the failure's diff holds, and the work lands from the commit.
func TestAnExecutorThatOwnsItsWorkspace(t *testing.T) {
	t.Parallel()
	var repo string
	gate := &failure.GateEvidence{Kind: "test", Command: "true", ExitCode: 1, Output: "--- FAIL: TestParse (0.00s)\nFAIL"}
	var sawWorktree bool
	first := func(a executor.Attempt) executor.Result {
		_, err := os.Stat(state.Open(repo).PhaseWorktreePath("1"))
		sawWorktree = a.Workspace != "" || err == nil
		return madeIn(t, &repo, "parse.go", "package parse\n", gate)(a)
	}
	x := &ownerExecutor{apartExecutor{scriptedExecutor{results: []func(executor.Attempt) executor.Result{
		first, madeIn(t, &repo, "fixed.go", "package parse // fixed\n", nil)}}}}
	res, _, _ := runPlanWith(t, onePhase, "exit 99", func(c *Config) {
		c.Executor, repo = x, c.Dir
		c.Worktree.Setup = "touch setup-ran-here"
	})
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	require.False(t, sawWorktree, "no worktree was made for the attempt")
	require.Len(t, x.attempts, 2)
	require.Equal(t, "touch setup-ran-here", x.attempts[0].Setup, "the setup command travels in the request")
	require.Empty(t, x.attempts[0].Continues)
	cont := x.attempts[1].Continues
	require.NotEmpty(t, cont, "the retry continues the failed attempt's work")
	require.Equal(t, "package parse", runGit(t, repo, "show", cont+":parse.go"))
	require.Equal(t, x.attempts[0].Base, x.attempts[1].Base)
	require.NoFileExists(t, filepath.Join(repo, "setup-ran-here"))
	require.Equal(t, "package parse", runGit(t, repo, "show", "HEAD:parse.go"), "the earlier work lands with the retry's")
	require.Equal(t, "package parse // fixed", runGit(t, repo, "show", "HEAD:fixed.go"))
	requireFirstAttemptsDiff(t, repo, "+package parse")
}

// A setup that failed where the executor ran it is the phase's
// environment_setup failure, not retried, as a local setup's is.
func TestAnExecutorsSetupFailureIsEnvironmentSetup(t *testing.T) {
	t.Parallel()
	setupFailed := func(executor.Attempt) executor.Result {
		return executor.Result{Setup: &executor.SetupFailure{How: "exit 2", Tail: "npm ERR! missing package.json"}}
	}
	x := &ownerExecutor{apartExecutor{scriptedExecutor{results: []func(executor.Attempt) executor.Result{setupFailed}}}}
	res, repo, _ := runPlanWith(t, onePhase, "exit 99", func(c *Config) {
		c.Executor = x
		c.Worktree.Setup = "npm ci"
	})
	require.Equal(t, state.RunHalted, res.Status)
	require.Len(t, x.attempts, 1, "not retried")
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Equal(t, failreport.EnvironmentSetup, p.Error.Type)
	require.Contains(t, p.Error.Message, "`npm ci` failed (exit 2)")
	require.Contains(t, p.Error.Message, "npm ERR! missing package.json")
}

// Under --review a phase of an executor that owns its workspaces gets a
// worktree here holding the handed-over work, for the person, and lands
// from it once approved.
func TestAReviewedHandedOverCommitGetsAWorktree(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t, onePhase)
	x := &ownerExecutor{apartExecutor{scriptedExecutor{results: []func(executor.Attempt) executor.Result{
		madeIn(t, &repo, "reviewed.txt", "made elsewhere\n", nil)}}}}
	done := runInBackground(t, repo, onePhase, "exit 99", func(c *Config) {
		reviewConfig(c)
		c.Executor = x
	})
	hold := awaitHold(t, repo, "1")
	ps, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.NotEmpty(t, ps.Worktree, "the person has a worktree to open")
	require.Equal(t, "made elsewhere\n", readFileT(t, filepath.Join(repo, filepath.FromSlash(ps.Worktree), "reviewed.txt")))
	diff, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(hold.DiffPath)))
	require.NoError(t, err)
	require.Contains(t, string(diff), "+made elsewhere")
	decide(t, repo, "1", hold, state.DecisionApprove, "")
	res := <-done
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	require.Equal(t, "made elsewhere", runGit(t, repo, "show", "HEAD:reviewed.txt"))
}

func readFileT(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

// A phase of an executor that owns its workspaces is given a worktree for
// the person's review; once rejected, its retry is made elsewhere again:
// the retry's failure diff is the retry's work (a commit), not what the
// rejected attempt's worktree still holds.
func TestARejectedHandedOverRetrysDiffIsItsOwn(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t, onePhase)
	gate := &failure.GateEvidence{Kind: "test", Command: "true", ExitCode: 1, Output: "--- FAIL: TestParse (0.00s)\nFAIL"}
	x := &ownerExecutor{apartExecutor{scriptedExecutor{results: []func(executor.Attempt) executor.Result{
		madeIn(t, &repo, "first.txt", "first attempt\n", nil),
		madeIn(t, &repo, "second.txt", "second attempt\n", gate)}}}}
	done := runInBackground(t, repo, onePhase, "exit 99", func(c *Config) {
		reviewConfig(c)
		c.Executor = x
	})
	hold := awaitHold(t, repo, "1")
	ps, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	reviewed := filepath.Join(repo, filepath.FromSlash(ps.Worktree))
	// The person changes the work there before rejecting it.
	require.NoError(t, os.WriteFile(filepath.Join(reviewed, "reviewer.txt"), []byte("the person's change\n"), 0o644))
	decide(t, repo, "1", hold, state.DecisionReject, "not like this")
	res := <-done
	require.Equal(t, state.RunHalted, res.Status, res.Reason)
	require.Len(t, x.attempts, 2)
	cont := x.attempts[1].Continues
	require.NotEmpty(t, cont, "the retry continues the reviewed work")
	require.Equal(t, "first attempt", runGit(t, repo, "show", cont+":first.txt"))
	require.Equal(t, "the person's change", runGit(t, repo, "show", cont+":reviewer.txt"), "as a local retry continues in the worktree")
	require.NoDirExists(t, reviewed, "the reviewed worktree went")
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Len(t, p.Attempts, 2)
	require.NotEmpty(t, p.Attempts[1].DiffPath)
	diff, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(p.Attempts[1].DiffPath)))
	require.NoError(t, err)
	require.Contains(t, string(diff), "+second attempt", "the retry's diff holds the retry's work")
}

// An executor that owns its workspaces may hand over no commit when its
// attempt changed nothing (Result.Commit ""): there is no workspace here
// either, and landing must not read one: your checkout (the repository's
// root) is never staged nor committed, and your branch does not move.
func TestAnOwnersAttemptWithoutCommitLeavesYourCheckout(t *testing.T) {
	t.Parallel()
	var repo, head string
	nothing := func(executor.Attempt) executor.Result {
		// You edit your checkout while the attempt runs elsewhere.
		head = runGit(t, repo, "rev-parse", "HEAD")
		if err := os.WriteFile(filepath.Join(repo, "yours.txt"), []byte("your own, uncommitted\n"), 0o644); err != nil {
			panic(err)
		}
		return executor.Result{Evidence: failure.Evidence{AgentRan: true},
			Gates: map[string]state.GateResult{"test": {Command: "true", Status: state.GatePassed, Passed: true}}}
	}
	x := &ownerExecutor{apartExecutor{scriptedExecutor{results: []func(executor.Attempt) executor.Result{nothing}}}}
	res, _, _ := runPlanWith(t, onePhase, "exit 99", func(c *Config) { c.Executor, repo = x, c.Dir })
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	require.Equal(t, head, runGit(t, repo, "rev-parse", "HEAD"), "your branch did not move: %s", runGit(t, repo, "log", "--stat", "-3"))
	require.Contains(t, runGit(t, repo, "status", "--porcelain"), "?? yours.txt", "your file is still yours, uncommitted")
}

// requireFirstAttemptsDiff checks phase 1's first attempt failed its tests
// and its recorded diff holds want.
func requireFirstAttemptsDiff(t *testing.T, repo, want string) {
	t.Helper()
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Equal(t, failreport.TestFailure, p.Attempts[0].Error.Type)
	require.NotEmpty(t, p.Attempts[0].DiffPath)
	diff, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(p.Attempts[0].DiffPath)))
	require.NoError(t, err)
	require.Contains(t, string(diff), want)
}
