package engine

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// scriptedExecutor stands in for an executor on another machine: it never
// runs the agent's command, only returns the evidence it is given for each
// attempt (in order), after writing work into the workspace.
type scriptedExecutor struct {
	mu       sync.Mutex
	attempts []executor.Attempt
	results  []func(a executor.Attempt) executor.Result
}

func (x *scriptedExecutor) Execute(_ context.Context, a executor.Attempt, obs executor.AttemptObserver) executor.Result {
	x.mu.Lock()
	n := len(x.attempts)
	x.attempts = append(x.attempts, a)
	x.mu.Unlock()
	obs.Output("agent", "working remotely")
	ev := x.results[min(n, len(x.results)-1)](a)
	obs.AgentEnded(ev)
	return ev
}

func wrote(name, text string) func(a executor.Attempt) executor.Result {
	return func(a executor.Attempt) executor.Result {
		if err := os.WriteFile(filepath.Join(a.Workspace, name), []byte(text), 0o644); err != nil {
			panic(err)
		}
		return executor.Result{Evidence: failure.Evidence{AgentRan: true, FilesChanged: []string{name}},
			Gates: map[string]state.GateResult{"test": {Command: "true", Status: state.GatePassed, Passed: true}}}
	}
}

// The engine records, classifies and lands around any executor: an
// executor's evidence alone completes a phase (its work is committed from
// the workspace) or fails it (classified, retried once with the failure as
// context), and the agent's own command is never run by the engine.
func TestEngineRecordsClassifiesAndLandsAroundTheExecutor(t *testing.T) {
	t.Parallel()
	failingTests := func(a executor.Attempt) executor.Result {
		if err := os.WriteFile(filepath.Join(a.Workspace, "parse.go"), []byte("package parse\n"), 0o644); err != nil {
			panic(err)
		}
		return executor.Result{Evidence: failure.Evidence{AgentRan: true, FilesChanged: []string{"parse.go"},
			Gate: &failure.GateEvidence{Kind: "test", Command: "true", ExitCode: 1, Output: "--- FAIL: TestParse (0.00s)\nFAIL"}},
			Gates: map[string]state.GateResult{"test": {Command: "true", Status: state.GateFailed, ExitCode: 1}}}
	}
	machinery := func(executor.Attempt) executor.Result {
		return executor.Result{Fault: &executor.Fault{Message: "the remote machine went away"}}
	}

	t.Run("success lands the workspace", func(t *testing.T) {
		t.Parallel()
		x := &scriptedExecutor{results: []func(executor.Attempt) executor.Result{wrote("remote.txt", "made elsewhere\n")}}
		res, repo, sink := runPlanWith(t, onePhase, "exit 99", func(c *Config) { c.Executor = x })
		require.Equal(t, state.RunComplete, res.Status, res.Reason)
		require.Equal(t, "made elsewhere", runGit(t, repo, "show", "HEAD:remote.txt"))
		p, err := state.Open(repo).LoadPhase("1")
		require.NoError(t, err)
		require.Equal(t, state.GatePassed, p.QualityGates["test"].Status)
		require.Equal(t, state.GatePassed, p.Verification.FreshVerification)
		require.Len(t, x.attempts, 1)
		a := x.attempts[0]
		require.Equal(t, runGit(t, repo, "rev-parse", "HEAD~1"), a.Base, "the attempt starts at the integration tip")
		require.Contains(t, a.Prompt, "Phase 1")
		require.Equal(t, phaseid.ID("1"), a.Env.PhaseID)
		require.Equal(t, 1, a.Seq)
		out := sink.of(event.PhaseOutput)
		require.NotEmpty(t, out)
		require.Equal(t, "working remotely", out[0].Line, "the observer's output becomes events")
	})
	t.Run("a failure is classified and retried with its context", func(t *testing.T) {
		t.Parallel()
		x := &scriptedExecutor{results: []func(executor.Attempt) executor.Result{failingTests, failingTests}}
		res, repo, _ := runPlanWith(t, onePhase, "exit 99", func(c *Config) { c.Executor = x })
		require.Equal(t, state.RunHalted, res.Status)
		require.Len(t, x.attempts, 2, "exactly one retry")
		require.Contains(t, x.attempts[1].Prompt, "TestParse", "the retry's prompt carries the first failure")
		p, err := state.Open(repo).LoadPhase("1")
		require.NoError(t, err)
		require.Equal(t, failreport.TestFailure, p.Error.Type)
		require.Equal(t, state.GateFailed, p.Verification.FreshVerification)
	})
	t.Run("the executor's own failure is autobuild's, retried", func(t *testing.T) {
		t.Parallel()
		x := &scriptedExecutor{results: []func(executor.Attempt) executor.Result{machinery, wrote("after.txt", "second try\n")}}
		res, repo, _ := runPlanWith(t, onePhase, "exit 99", func(c *Config) { c.Executor = x })
		require.Equal(t, state.RunComplete, res.Status, res.Reason)
		p, err := state.Open(repo).LoadPhase("1")
		require.NoError(t, err)
		require.Equal(t, failreport.AgentError, p.Attempts[0].Error.Type)
		require.Contains(t, p.Attempts[0].Error.Message, "the remote machine went away")
	})
}

// apartExecutor is a scriptedExecutor on another machine (executor.Apart).
type apartExecutor struct{ scriptedExecutor }

func (*apartExecutor) Apart() bool { return true }

// The guard compares your checkout around an attempt only where the
// executor shares it: a file that appears there during a remote attempt is
// yours (no agent ran here), and the phase lands; the same during a local
// attempt is an outside_worktree failure.
func TestOutsideCheckOnlyWhereTheExecutorSharesTheCheckout(t *testing.T) {
	t.Parallel()
	strayWrite := func(dir *string) func(a executor.Attempt) executor.Result {
		return func(a executor.Attempt) executor.Result {
			if err := os.WriteFile(filepath.Join(*dir, "mine.txt"), []byte("a person's file\n"), 0o644); err != nil {
				panic(err)
			}
			return wrote("remote.txt", "made elsewhere\n")(a)
		}
	}
	var dir string
	x := &apartExecutor{scriptedExecutor{results: []func(executor.Attempt) executor.Result{strayWrite(&dir)}}}
	res, _, _ := runPlanWith(t, onePhase, "exit 99", func(c *Config) { c.Executor, dir = x, c.Dir })
	require.Equal(t, state.RunComplete, res.Status, res.Reason)

	var dir2 string
	local := &scriptedExecutor{results: []func(executor.Attempt) executor.Result{strayWrite(&dir2)}}
	res, repo, _ := runPlanWith(t, onePhase, "exit 99", func(c *Config) { c.Executor, dir2 = local, c.Dir })
	require.NotEqual(t, state.RunComplete, res.Status)
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.NotNil(t, p.Error)
	require.Equal(t, failreport.OutsideWorktree, p.Error.Type)
}
