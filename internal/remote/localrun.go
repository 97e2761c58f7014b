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
			return faultResult(fmt.Sprintf("opening the attempt's worktree %s: %v", ws.Path, err))
		}
		scratch, err := os.MkdirTemp("", "autobuild-attempt-")
		if err != nil {
			return faultResult(fmt.Sprintf("a scratch directory for the attempt: %v", err))
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
				return faultResult(fmt.Sprintf("the simulated agent's scenario: %v", err))
			}
		}
		if req.PlanInRepo != "" {
			env.PlanPath = filepath.Join(ws.Path, filepath.FromSlash(req.PlanInRepo))
		}
		// The request as it came, with this machine's own: the agent's
		// command and environment, the workspace's base and branches, the
		// clock.
		a := executor.Attempt{Request: req.Request, Workspace: ws.Path,
			PromptPath: filepath.Join(scratch, "prompt.md"), StreamPath: filepath.Join(scratch, "stream.jsonl"), Log: log}
		a.Agent, a.Args, a.Env = ag, args, env
		a.Base, a.Branch = ws.Base, ws.Branch
		a.KeepBranch = "autobuild-kept/" + req.RunID + "/phase-" + string(state.FileIDOf(req.PhaseID)) + "-autostash"
		a.Started = time.Now()
		if req.BasePending {
			// Sent before the run's base check ended: its gates ask for
			// the base's known failures when one fails.
			a.BaseFailing = p.BaseFailing
		}
		if req.Setup != "" {
			// The workspace is the worker's: so is its setup.
			sf, canceled := runSetup(ctx, ws, req, grace, log, p)
			if canceled {
				return AttemptResult{Result: executor.Result{Interrupted: true}}
			}
			if sf != nil {
				return AttemptResult{Result: executor.Result{Setup: sf}}
			}
		}
		ev := x.Execute(ctx, a, observer{p})
		// The worktree's change is handed over as the activity's commit.
		ev.Worktree, ev.Change = "", gitx.Known{}
		return AttemptResult{Result: ev}
	}
}

// observer turns the local executor's reports into the heartbeat's
// progress.
type observer struct{ p Reporter }

func (o observer) Output(stream, line string)                { o.p.Output(line) }
func (o observer) Action(tool, text string)                  { o.p.Action() }
func (o observer) AgentEnded(executor.Result)                {}
func (o observer) GateEnded(kind string, r state.GateResult) {}
func (o observer) Lines() proc.LineMode                      { return proc.LinesAll }

// faultResult is a result whose machinery failed on the worker.
func faultResult(msg string) AttemptResult {
	return AttemptResult{Result: executor.Result{Fault: &executor.Fault{Message: msg}}}
}
