// Package executor is the seam between the engine and whatever makes an
// attempt: the Executor interface, the Attempt it is given, the Evidence
// it returns and the observer that hears it run. Package localexec is the
// executor of this machine.
package executor

import (
	"context"
	"io"
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
// An executor that works away from this machine must leave the attempt's
// work in Attempt.Workspace before it returns (for example by fetching the
// commit it made there and checking it out): landing reads the work from
// the workspace.
type Executor interface {
	Execute(ctx context.Context, a Attempt, obs AttemptObserver) Evidence
}

// Attempt is everything an executor needs to make one attempt.
type Attempt struct {
	// RunID is run.json's run_id: an executor that works away from this
	// machine names the run's refs and workflow by it.
	RunID     string
	PhaseID   phaseid.ID
	DisplayID phaseid.Display
	// Number is the attempt within this run (1 or 2); Seq counts every
	// attempt of the phase ever and names its files.
	Number, Seq int
	Agent       agent.Agent
	// Args is the agent's command line for this attempt (a continued
	// session's differs from Agent.Args); Prompt goes to its stdin and to
	// PromptPath.
	Args       []string
	Prompt     string
	PromptPath string
	// Session is the agent's session this attempt continues, for an ACP
	// agent (session/load); "" for a new one.
	Session string
	// Env is what the agent's environment tells it about the attempt.
	Env agent.EnvInput
	// WorkEnv is added to the agent's and the gates' environment: the
	// phase's ports ($AUTOBUILD_PORT and the rest, package wtenv).
	WorkEnv []string
	// Workspace is the checkout the agent works in, at Base (with an
	// earlier attempt's work on top when the attempt continues it).
	Workspace, Base string
	// Branch is the workspace's branch (autobuild/<run>/phase-<id>), which
	// the phase's commit moves; HEAD is put back on it if the agent left it.
	// KeepBranch starts the name of the branch that keeps an autostash of
	// the agent's that could not be put back (state.Refs.KeptAutostash).
	Branch, KeepBranch string
	Gates              []gates.Gate
	// Timeout covers the agent and the gates together: the gates must
	// end by Started+Timeout. IdleTimeout stops an agent that prints
	// nothing for that long.
	Started              time.Time
	Timeout, IdleTimeout time.Duration
	// Log is the attempt's log; StreamPath the file for a preset CLI's
	// raw event stream.
	Log        io.Writer
	StreamPath string
	// PlanInRepo is the plan's path in the repository ("" when outside):
	// the agent's edits of it are undone.
	PlanInRepo string
	// BaseFailing returns, per gate kind, the failing tests the run's base
	// already had (--allow-red-base): a gate that fails with only those
	// passes (docs/running.md, "The line stays green"). It may wait for
	// the check of the base; nil means none.
	BaseFailing func() map[string][]string
}

// Evidence is what an attempt produced: what the classifier reads, and what
// the phase runner records and lands. Its FilesChanged lists the
// workspace's changes as `git status --untracked-files=all` does (a nested
// repository as its directory with a trailing slash): the phase runner
// refuses a change that holds one, or autobuild's state directory.
type Evidence struct {
	failure.Evidence
	// CommitMessage is the agent's, from its result object.
	CommitMessage string
	// Usage is what the agent spent; Session the CLI's session id.
	Usage   *state.Usage
	Session string
	// Gates holds each gate's result by kind; nil when no gate ran.
	Gates map[string]state.GateResult
	// Change is what the executor knows of the workspace's change as it
	// hands it over; the zero value (knowing nothing) makes the commit
	// stage the whole tree.
	Change gitx.Known
	// Interrupted is set when ctx ended the attempt (Ctrl-C): nothing
	// else in the evidence counts.
	Interrupted bool
	// Err is a failure of the executor's own machinery (git on the
	// workspace, a file it could not write): not the agent's doing.
	Err error
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
	AgentEnded(ev Evidence)
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
