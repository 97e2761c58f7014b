// Package localexec makes an attempt on this machine: it runs the agent in
// the attempt's workspace (RunAgent), tidies what the agent left
// (TidyWorkspace), runs the gates (RunGates) and puts back what they wrote
// (RestoreAfterGates, FoldGateCommits). Executor does all of it for the
// engine; a worker on another machine imports it to do the same there. The
// commit of the attempt's own work is gitx.Repo.CommitOwn, made from the
// Evidence.Change this package hands over.
package localexec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/clip"
	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/gates"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/proc"
	"github.com/autobuild-sh/autobuild/internal/sanitize"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// Executor runs attempts as processes on this machine, in a git
// worktree of the user's repository.
type Executor struct {
	Repo *gitx.Repo
	// Root is the repository root: messages name paths relative to it.
	Root string
	// Grace is how long a stopped process gets before it is killed;
	// hardStop, once closed, kills at once (the second Ctrl-C).
	Grace    time.Duration
	HardStop <-chan struct{}
	LogCap   int64
	Now      func() time.Time
}

// Execute runs the agent, then (if it succeeded) the gates, and gathers the
// evidence. The attempt's time limit covers the agent and the gates
// together.
func (x *Executor) Execute(ctx context.Context, a executor.Attempt, obs executor.AttemptObserver) (ev executor.Result) {
	if g := missingDeclaredGate(a.Gates); g != nil {
		// Running the agent first would spend a whole attempt on work that
		// cannot be verified.
		fmt.Fprintf(a.Log, "# autobuild: the %s gate `%s` needs %s, which is not on PATH: the agent was not started\n", g.Kind, g.Command, g.Tool)
		ev.Gates = map[string]state.GateResult{g.Kind: {Command: g.Command, Status: state.GateMissing,
			ExitCode: 127, OutputSummary: "not run: " + g.Tool + " is not installed"}}
		ev.AgentCommand = a.Agent.Command()
		ev.Gate = &failure.GateEvidence{Kind: g.Kind, Command: g.Command, ExitCode: 127, Declared: true,
			Output: g.Tool + ": not found (checked before the agent was started)"}
		return ev
	}
	if err := os.MkdirAll(filepath.Dir(a.PromptPath), 0o755); err == nil {
		_ = os.WriteFile(a.PromptPath, []byte(a.Prompt), 0o644)
	}
	a.Env.PromptFile = a.PromptPath
	spec := proc.Spec{
		Args: a.Args, Shell: a.Agent.Shell, Dir: a.Workspace,
		Env:   append(append(agent.Env(a.Env), a.WorkEnv...), a.Agent.Env...),
		Stdin: strings.NewReader(a.Prompt), Timeout: a.Timeout, IdleTimeout: a.IdleTimeout,
		Grace: x.Grace, HardStop: x.HardStop, Output: a.Log,
		OnLine: func(line string) { obs.Output("agent", line) }, Lines: obs.Lines,
	}
	run := x.RunAgent(ctx, a, spec, obs)
	if u := run.Usage; u != nil && u.Model == "" {
		// The CLI named no model (codex): the one the user chose prices
		// its tokens (package budget).
		u.Model = agent.ModelArg(a.Agent.Extra)
	}
	ev.Usage, ev.Session = run.Usage, run.Session
	if run.Result.Canceled {
		ev.Interrupted = true
		obs.AgentEnded(ev)
		return ev
	}
	x.agentEvidence(&ev, a, run)
	obs.AgentEnded(ev)

	files, exact, err := x.TidyWorkspace(ctx, a)
	if err != nil {
		ev.Interrupted = ctx.Err() != nil
		ev.Fault = executor.FaultOf(err)
		return ev
	}
	ev.FilesChanged = files
	ev.Worktree = a.Workspace
	if executor.AgentFailed(ev.Evidence) {
		return ev
	}
	// What the gates create or change (a binary, a coverage file, a
	// formatter's rewrite) is no part of the phase's work: the worktree is
	// put back as the agent left it before anything is committed.
	// Without a gate to run there is nothing to put back.
	snapshot := AnyGateRuns(a.Gates)
	var agentTree string
	var snapErr error
	if snapshot {
		agentTree, snapErr = gitx.SnapshotTree(ctx, a.Workspace)
	}
	if snapErr != nil && ctx.Err() == nil {
		ev.Fault = executor.FaultOf(fmt.Errorf("recording phase %s's worktree before the gates: %w", a.DisplayID, snapErr))
		return ev
	}
	gate, timedOut, results, interrupted := x.RunGates(ctx, a, obs, a.Started.Add(a.Timeout))
	if snapshot && snapErr == nil {
		if err := RestoreAfterGates(context.WithoutCancel(ctx), a.Workspace, agentTree, a.Log); err != nil {
			ev.Fault = executor.FaultOf(fmt.Errorf("phase %s: %w", a.DisplayID, err))
			return ev
		}
		if err := FoldGateCommits(context.WithoutCancel(ctx), x.Repo, a.Workspace, a.Base, a.Log); err != nil {
			ev.Fault = executor.FaultOf(fmt.Errorf("phase %s: %w", a.DisplayID, err))
			return ev
		}
	}
	if interrupted {
		ev.Interrupted = true
		return ev
	}
	ev.Gate, ev.TimedOut, ev.Gates = gate, timedOut, results
	// The files are as the status after the agent listed them, and HEAD is
	// at the base: the gates' changes and commits are undone. What a gate
	// staged shows as a tree that is not the snapshot's, and everything is
	// staged then.
	ev.Change = gitx.Known{Files: files, Exact: exact && (!snapshot || agentTree != ""), Tree: agentTree, Head: a.Base}
	if gate != nil || timedOut {
		// The failure report names the files as the gates left them (they
		// may format or generate files). A passing phase's files are read
		// where they are committed.
		ev.FilesChanged, _ = ChangedFiles(ctx, a.Workspace)
	}
	return ev
}

// agentEvidence fills in how the agent's process ended and what its result
// object claims.
func (x *Executor) agentEvidence(ev *executor.Result, a executor.Attempt, run AgentRun) {
	res := run.Result
	logAgentEnd(a.Log, res, a.Timeout, a.IdleTimeout)
	ev.TimedOut, ev.IdleTimedOut = res.TimedOut, res.IdleTimedOut
	ev.AgentExitCode, ev.AgentNotFound = res.ExitCode, res.NotFound
	ev.AgentRan = !res.NotFound
	ev.AgentCommand = a.Agent.Command()
	ev.AgentOutput = run.Output
	ev.AgentSignal = run.Signal
	if res.Err != nil && !res.NotFound {
		ev.AgentOutput += "\n" + res.Err.Error()
		if ev.AgentExitCode == 0 {
			ev.AgentExitCode = -1
		}
	}
	ev.ResultRequired = a.Agent.RequiresResult
	result, err := agent.ParseResult(run.Final)
	switch {
	case err == nil && !ForPhase(result.PhaseID, a.PhaseID):
		// Another phase's result (or "?"): none of its claims, and never
		// its commit message, are this phase's.
		ev.ResultFound = true
		ev.ResultOtherPhase = sanitize.Text(result.PhaseID)
		fmt.Fprintf(a.Log, "# autobuild: the result object is for phase_id %q, not phase %s: not taken\n", ev.ResultOtherPhase, a.DisplayID)
	case err == nil:
		ev.ResultFound = true
		ev.ResultStatus = result.Status
		ev.TasksTotal, ev.TasksCompleted = result.Tasks.Total, result.Tasks.Completed
		ev.CommitMessage = result.CommitMessage
		if run.Usage == nil {
			// What the CLI itself counted beats what its message claims.
			ev.Usage = result.Usage
		}
		if result.Error != nil {
			ev.ResultErrorType, ev.ResultErrorMessage = result.Error.Type, result.Error.Message
		}
	case !errors.Is(err, agent.ErrNoResult):
		ev.ResultParseErr = err.Error()
	}
}

// TidyWorkspace undoes what the agent must not do, before the gates judge
// the work: a merge or the like it left in progress is forgotten, commits
// it made are folded back into uncommitted changes (they
// would otherwise never reach the run's line), and edits of the plan, the
// user's record, are reverted (two phases ticking its boxes would
// conflict). It returns the files the work changes. Every phase passes
// through here, so the usual case costs two git commands: git's answer to
// which repository the worktree belongs to, and the status that also
// gives HEAD and says whether the plan changed. exact says that the
// files were read after the last change of the worktree (see gitx.Known).
func (x *Executor) TidyWorkspace(ctx context.Context, a executor.Attempt) (files []string, exact bool, err error) {
	wt := a.Workspace
	// A worktree's .git is a file naming its own git dir. Without it (the
	// agent removed it, or ran git init), or pointing elsewhere, git here
	// would act on another repository or worktree: a reset below would
	// move the user's branch.
	if err := x.Repo.CheckOwnWorktree(ctx, wt); err != nil {
		return nil, false, fmt.Errorf("the agent removed or replaced the .git file of phase %s's worktree (%s), so its work cannot be read; nothing of it was committed (%v)", a.DisplayID, state.RelPath(x.Root, wt), err)
	}
	done, err := x.Repo.ForgetOperations(ctx, wt, a.KeepBranch)
	for _, note := range done {
		fmt.Fprintf(a.Log, "# autobuild: %s\n", note)
	}
	if err != nil {
		return nil, false, fmt.Errorf("phase %s's worktree: %w", a.DisplayID, err)
	}
	// The reset below and the phase's commit move the branch HEAD names:
	// it must be the phase's own.
	note, err := x.Repo.AttachHead(ctx, wt, a.Branch, a.Base)
	if err != nil {
		return nil, false, fmt.Errorf("putting HEAD of phase %s's worktree back on its branch: %w", a.DisplayID, err)
	}
	if note != "" {
		fmt.Fprintf(a.Log, "# autobuild: %s\n", note)
	}
	head, files, err := gitx.HeadAndStatusFiles(ctx, wt)
	if err != nil {
		return nil, false, fmt.Errorf("reading the worktree of phase %s after the agent: %w", a.DisplayID, err)
	}
	exact = true
	if head != a.Base {
		// The reset refuses to run while files are in conflict.
		conflicted, err := x.Repo.StageConflicted(ctx, wt)
		if err != nil {
			return nil, false, fmt.Errorf("staging the files the agent left in conflict in phase %s's worktree: %w", a.DisplayID, err)
		}
		if len(conflicted) > 0 {
			fmt.Fprintf(a.Log, "# autobuild: the agent left %s in conflict; staged as they are, for the gates to judge\n", strings.Join(conflicted, ", "))
		}
		if err := x.Repo.ResetSoft(ctx, wt, a.Base); err != nil {
			return nil, false, fmt.Errorf("folding the agent's commits into phase %s's work: %w", a.DisplayID, err)
		}
		fmt.Fprintf(a.Log, "# autobuild: the agent committed (HEAD was %s); its commits are folded into the phase's one commit\n", clip.SHA(head))
		files, exact = ChangedFiles(ctx, wt)
	}
	if a.PlanInRepo != "" && slices.Contains(files, a.PlanInRepo) {
		undone, err := x.Repo.RestoreFile(ctx, wt, a.Base, a.PlanInRepo)
		if err != nil {
			return nil, false, fmt.Errorf("restoring the plan in phase %s's worktree: %w", a.DisplayID, err)
		}
		if undone {
			fmt.Fprintf(a.Log, "# autobuild: the agent changed the plan (%s); the change is undone: the plan is the user's record\n", a.PlanInRepo)
			files, exact = ChangedFiles(ctx, wt)
		}
	}
	return files, exact, nil
}

// AnyGateRuns reports whether a gate will run: without one there is
// nothing to snapshot the worktree against.
func AnyGateRuns(gs []gates.Gate) bool {
	for _, g := range gs {
		if !g.Skipped() {
			return true
		}
	}
	return false
}

// missingDeclaredGate returns a gate the user declared whose tool is not
// installed, looked up again now (an earlier phase may have installed it),
// or nil.
func missingDeclaredGate(gs []gates.Gate) *gates.Gate {
	for i, g := range gs {
		if g.Declared && g.ToolMissing && gates.Missing(g.Tool) {
			return &gs[i]
		}
	}
	return nil
}

// logAgentEnd writes how the agent's process ended to the attempt log.
func logAgentEnd(log io.Writer, res proc.Result, limit, idle time.Duration) {
	took := res.Duration.Round(time.Millisecond)
	switch {
	case res.NotFound && res.Err != nil:
		fmt.Fprintf(log, "\n# autobuild: the agent could not start: %v\n", res.Err)
	case res.TimedOut:
		fmt.Fprintf(log, "\n# autobuild: the agent was stopped: it ran past the attempt's time limit (%s)\n", limit)
	case res.IdleTimedOut:
		fmt.Fprintf(log, "\n# autobuild: the agent was stopped: it printed nothing for %s\n", idle)
	case res.Aborted:
		fmt.Fprintf(log, "\n# autobuild: the agent was stopped after %s: it reported a failure no retry of its own can fix\n", took)
	case res.Err != nil:
		fmt.Fprintf(log, "\n# autobuild: the agent failed after %s: %v\n", took, res.Err)
	default:
		fmt.Fprintf(log, "\n# autobuild: the agent exited with status %d after %s\n", res.ExitCode, took)
	}
}

// ChangedFiles lists the files the worktree's work changes; ok is false
// (and the list nil) when git cannot say.
func ChangedFiles(ctx context.Context, wt string) (files []string, ok bool) {
	files, err := gitx.StatusFiles(ctx, wt)
	return files, err == nil
}

// ForPhase says whether a result object's phase_id names phase id: as the
// plan writes it or as its key ("2-A", "Phase 2a", "2a"); a result
// without a phase_id is taken as this phase's.
func ForPhase(resultID string, id phaseid.ID) bool {
	return strings.TrimSpace(resultID) == "" || plan.NormalizeID(resultID) == id
}
