package remote

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/localexec"
	"github.com/autobuild-sh/autobuild/internal/proc"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// LocalRunner makes attempts on the worker as the local executor makes
// them on the coordinator's machine (package localexec: the agent, the
// tidying, the gates, the gate output put back). self is the worker's own
// executable: the simulated agent runs as `self sim-agent` here, not as
// the coordinator's binary; grace is how long a stopped process gets.
func LocalRunner(self string, grace time.Duration, logCap int64) Runner {
	return func(ctx context.Context, ws Workspace, req AttemptRequest, log io.Writer, p Reporter) AttemptResult {
		repo, err := gitx.Open(ctx, ws.Path)
		if err != nil {
			return AttemptResult{InfraError: fmt.Sprintf("opening the attempt's worktree %s: %v", ws.Path, err)}
		}
		scratch, err := os.MkdirTemp("", "autobuild-attempt-")
		if err != nil {
			return AttemptResult{InfraError: fmt.Sprintf("a scratch directory for the attempt: %v", err)}
		}
		defer os.RemoveAll(scratch)
		x := &localexec.Executor{Repo: repo, Root: ws.Path, Grace: grace, LogCap: logCap, Now: time.Now}
		ag := req.Agent
		args := req.Args
		if ag.Name == agent.SimName && len(args) > 0 {
			args = append([]string{self}, args[1:]...)
			ag.Args = args
		}
		env := req.Env
		env.PlanPath, env.SimScenario = "", ""
		if req.SimScenario != "" {
			env.SimScenario = filepath.Join(scratch, "scenario.json")
			if err := os.WriteFile(env.SimScenario, []byte(req.SimScenario), 0o644); err != nil {
				return AttemptResult{InfraError: fmt.Sprintf("the simulated agent's scenario: %v", err)}
			}
		}
		if req.PlanInRepo != "" {
			env.PlanPath = filepath.Join(ws.Path, filepath.FromSlash(req.PlanInRepo))
		}
		a := executor.Attempt{
			PhaseID: req.PhaseID, DisplayID: req.DisplayID, Number: req.Number, Seq: req.Seq,
			Agent: ag, Args: args, Prompt: req.Prompt, PromptPath: filepath.Join(scratch, "prompt.md"),
			Session: req.Session, Env: env, WorkEnv: req.WorkEnv,
			Workspace: ws.Path, Base: ws.Base, Branch: ws.Branch,
			KeepBranch: "autobuild-kept/" + req.RunID + "/phase-" + string(state.FileIDOf(req.PhaseID)) + "-autostash",
			Gates:      req.Gates, Started: time.Now(), Timeout: req.Timeout, IdleTimeout: req.IdleTimeout,
			Log: log, StreamPath: filepath.Join(scratch, "stream.jsonl"), PlanInRepo: req.PlanInRepo,
		}
		ev := x.Execute(ctx, a, observer{p})
		res := AttemptResult{Evidence: ev.Evidence, CommitMessage: ev.CommitMessage, Usage: ev.Usage,
			Session: ev.Session, Gates: ev.Gates, Interrupted: ev.Interrupted}
		res.Worktree = ""
		if ev.Err != nil {
			res.InfraError = ev.Err.Error()
		}
		return res
	}
}

// observer turns the local executor's reports into the heartbeat's
// progress.
type observer struct{ p Reporter }

func (o observer) Output(stream, line string)                { o.p.Output(line) }
func (o observer) Action(tool, text string)                  { o.p.Action() }
func (o observer) AgentEnded(executor.Evidence)              {}
func (o observer) GateEnded(kind string, r state.GateResult) {}
func (o observer) Lines() proc.LineMode                      { return proc.LinesAll }
