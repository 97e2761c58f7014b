// Package executor is the seam between the engine and whatever makes an
// attempt: the Executor interface, the Attempt it is given (a plain
// Request and this process's handles), the plain Result it returns and the observer that hears it run. Package localexec is the
// executor of this machine.
package executor

import (
	"context"
	"errors"
	"io"
	"syscall"
	"time"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/gates"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/proc"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// Executor makes one attempt of a phase and returns its evidence. It runs
// the agent and then the quality gates in the attempt's workspace; it keeps
// no state, classifies nothing and lands nothing: the phase runner
// (engine/attempt.go) records, classifies and lands around it. The scheduler never
// sees an executor, so one that runs attempts elsewhere (another machine, a
// durable workflow engine) replaces localexec.Executor and nothing else.
//
// An executor in this process leaves the attempt's work in
// Attempt.Workspace, where landing reads it. One that works away from this
// machine hands the work back as Result.Commit (a commit on Request.Base in
// this repository's objects): landing takes that commit's tree.
type Executor interface {
	Execute(ctx context.Context, a Attempt, obs AttemptObserver) Result
}

// Request is what an attempt is, as plain data: it means the same on
// another machine, and crosses the network as it is (JSON, Temporal's data
// converter). An Attempt adds the handles only an executor in this process
// can use.
type Request struct {
	// RunID is run.json's run_id: an executor that works away from this
	// machine names the run's refs and workflow by it.
	RunID     string          `json:"run_id"`
	PhaseID   phaseid.ID      `json:"phase_id"`
	DisplayID phaseid.Display `json:"display_id"`
	// Number is the attempt within this run (1 or 2); Seq counts every
	// attempt of the phase ever and names its files.
	Number int         `json:"number"`
	Seq    int         `json:"seq"`
	Agent  agent.Agent `json:"agent"`
	// Args is the agent's command line for this attempt (a continued
	// session's differs from Agent.Args); Prompt goes to its stdin.
	Args   []string `json:"args,omitempty"`
	Prompt string   `json:"prompt"`
	// Session is the agent's session this attempt continues, for an ACP
	// agent (session/load); "" for a new one.
	Session string `json:"session,omitempty"`
	// Env is what the agent's environment tells it about the attempt (its
	// paths are this machine's: an executor elsewhere sets its own).
	Env agent.EnvInput `json:"env"`
	// WorkEnv is added to the agent's and the gates' environment: the
	// phase's ports ($AUTOBUILD_PORT and the rest, package wtenv).
	WorkEnv []string `json:"work_env,omitempty"`
	// Base is the commit the attempt starts from (the workspace's HEAD;
	// an earlier attempt's work may be on top when the attempt continues
	// it).
	Base string `json:"base"`
	// Branch is the workspace's branch (autobuild/<run>/phase-<id>), which
	// the phase's commit moves; HEAD is put back on it if the agent left it.
	// KeepBranch starts the name of the branch that keeps an autostash of
	// the agent's that could not be put back (state.Refs.KeptAutostash).
	Branch     string       `json:"branch,omitempty"`
	KeepBranch string       `json:"keep_branch,omitempty"`
	Gates      []gates.Gate `json:"gates,omitempty"`
	// Timeout covers the agent and the gates together: the gates must
	// end by Started+Timeout. IdleTimeout stops an agent that prints
	// nothing for that long.
	Started     time.Time     `json:"started"`
	Timeout     time.Duration `json:"timeout"`
	IdleTimeout time.Duration `json:"idle_timeout,omitempty"`
	// PlanInRepo is the plan's path in the repository ("" when outside):
	// the agent's edits of it are undone.
	PlanInRepo string `json:"plan_in_repo,omitempty"`
	// Continues is, for an executor that owns its workspace, a commit
	// whose tree is the earlier attempt's work this attempt continues (on
	// Base); "" for an attempt that starts from Base.
	Continues string `json:"continues,omitempty"`
	// Setup is the [worktree] setup command an executor that owns its
	// workspace runs there before the agent ("" for none); its failure is
	// Result.Setup.
	Setup string `json:"setup,omitempty"`
	// Teardown is the [worktree] teardown command that executor runs in
	// its workspace when it is done with it, if it ran Setup there ("" for
	// none); its failure is logged, not the attempt's.
	Teardown string `json:"teardown,omitempty"`
	// KnownFailing is, per gate kind, the failing tests the run's base
	// already had (--allow-red-base), as data: a gate that fails with
	// only those passes (docs/running.md, "The line stays green"). An
	// executor that sends the attempt elsewhere fills it from
	// Attempt.BaseFailing, once the check of the base has ended; an
	// executor in this process reads Attempt.BaseFailing itself when it is
	// set.
	KnownFailing map[string][]string `json:"known_failing,omitempty"`
}

// Attempt is everything an executor in this process needs to make one
// attempt: the plain Request and the handles that mean something only
// here (a writer, a function, this machine's paths). An executor that
// sends the attempt elsewhere sends the Request.
type Attempt struct {
	Request
	// Workspace is the checkout the agent works in, at Base (with an
	// earlier attempt's work on top when the attempt continues it).
	Workspace string
	// PromptPath is where the prompt is kept (.autobuild/); StreamPath the
	// file for a preset CLI's raw event stream.
	PromptPath, StreamPath string
	// Log is the attempt's log.
	Log io.Writer
	// BaseFailing returns, per gate kind, the failing tests the run's base
	// already had (--allow-red-base): a gate that fails with only those
	// passes (docs/running.md, "The line stays green"). It may wait for
	// the check of the base; nil means none known (Request.KnownFailing
	// then holds them, if any). The engine sets it only with
	// --allow-red-base: without it a red base stops the run.
	BaseFailing func() map[string][]string
}

// Result is what an attempt produced, as plain data: what the classifier
// reads, and what the phase runner records and lands. Its FilesChanged
// lists the work's changes as `git status --untracked-files=all` does (a
// nested repository as its directory with a trailing slash): the phase
// runner refuses a change that holds one, or autobuild's state directory.
type Result struct {
	failure.Evidence
	// CommitMessage is the agent's, from its result object.
	CommitMessage string `json:"commit_message,omitempty"`
	// Usage is what the agent spent; Session the CLI's session id.
	Usage   *state.Usage `json:"usage,omitempty"`
	Session string       `json:"session,omitempty"`
	// Gates holds each gate's result by kind; nil when no gate ran.
	Gates map[string]state.GateResult `json:"gates,omitempty"`
	// Change is what the executor knows of the workspace's change as it
	// hands it over; the zero value (knowing nothing) makes the commit
	// stage the whole tree.
	Change gitx.Known `json:"change"`
	// Commit is the attempt's work as one commit whose parent is the
	// request's Base, made by an executor that works elsewhere: landing
	// takes its tree, and the work need not be in a local workspace. ""
	// when the work is left in Attempt.Workspace, or nothing changed.
	Commit string `json:"commit,omitempty"`
	// Patch is a failed attempt's work as a diff against Base, when the
	// work is not in a local workspace (capped by the executor).
	Patch string `json:"patch,omitempty"`
	// Interrupted is set when ctx ended the attempt (Ctrl-C): nothing
	// else in the result counts.
	Interrupted bool `json:"interrupted,omitempty"`
	// Setup is set when the workspace's setup command (Request.Setup)
	// failed: the agent did not run.
	Setup *SetupFailure `json:"setup,omitempty"`
	// Fault is a failure of the executor's own machinery (git on the
	// workspace, a file it could not write): not the agent's doing.
	Fault *Fault `json:"fault,omitempty"`
}

// SetupFailure is how the [worktree] setup command failed in a workspace
// an executor owns.
type SetupFailure struct {
	// How is "exit 2", "stopped at the attempt's time limit 30m", or git's
	// or the shell's error; Tail the end of its output.
	How  string `json:"how"`
	Tail string `json:"tail,omitempty"`
	// LeftFiles are files git does not ignore that a setup that passed
	// changed (they would be committed as the phase's work).
	LeftFiles []string `json:"left_files,omitempty"`
}

// Fault is an executor's machinery failure as data: its message, and
// whether it was the disk (or quota) running out of space.
type Fault struct {
	Message string `json:"message"`
	NoSpace bool   `json:"no_space,omitempty"`
}

// Error makes a Fault an error for the phase runner's reports.
func (f *Fault) Error() string { return f.Message }

// FaultOf is err as data; nil for nil.
func FaultOf(err error) *Fault {
	if err == nil {
		return nil
	}
	return &Fault{Message: err.Error(), NoSpace: errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)}
}

// AttemptObserver hears of an attempt while it runs. Its methods may be
// called from several goroutines.
type AttemptObserver interface {
	// Output is a line of the agent's or a gate's output (stream "agent",
	// "agent:stderr" or "gate:KIND").
	Output(stream, line string)
	// Action is a tool call a preset agent CLI reported.
	Action(tool, text string)
	// AgentEnded is told what the agent claimed and spent, before the
	// gates run (also when the attempt was interrupted).
	AgentEnded(ev Result)
	// GateEnded is told of each gate as it ends (or is skipped).
	GateEnded(kind string, r state.GateResult)
	// Lines says which output lines are worth turning into strings.
	Lines() proc.LineMode
}

// WorkerObserver is an AttemptObserver that also hears which worker (another
// machine) took the attempt; an executor that runs attempts elsewhere tells
// an observer that implements it.
type WorkerObserver interface {
	Worker(name string)
}

// Apart is an Executor whose attempts never touch your checkout: they run
// on other machines. The phase runner does not snapshot your checkout
// around its attempts (the guard's comparison, which tells an agent's
// stray write from your own, has nothing to find there).
type Apart interface {
	Apart() bool
}

// WorkspaceOwner is an Executor that makes its attempts' workspaces
// itself, elsewhere (another machine): the phase runner makes no worktree
// for its attempts, brings no files of your checkout into one and runs no
// [worktree] setup; it sends the setup command in the Request (Setup) and
// an earlier attempt's work as a commit (Continues), and takes the work
// back as Result.Commit. Attempt.Workspace is "" for its attempts.
type WorkspaceOwner interface {
	OwnsWorkspace() bool
}

// OwnsWorkspace says whether x makes its attempts' workspaces itself.
func OwnsWorkspace(x Executor) bool {
	o, ok := x.(WorkspaceOwner)
	return ok && o.OwnsWorkspace()
}

// SharesCheckout says whether x's attempts run beside your checkout, so
// that the guard compares it before and after each.
func SharesCheckout(x Executor) bool {
	a, ok := x.(Apart)
	return !ok || !a.Apart()
}

// QuotaObserver is an AttemptObserver that also hears what an agent CLI
// reports of its quota. The local executor tells an observer that
// implements it; other executors may.
type QuotaObserver interface {
	Quota(agentName string, q agent.Quota)
}

// AgentFailed says whether the agent itself failed: it timed out, was not
// found or exited non-zero.
func AgentFailed(ev failure.Evidence) bool {
	return ev.TimedOut || ev.IdleTimedOut || ev.AgentNotFound || ev.AgentExitCode != 0
}
