package remote

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/clip"
	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/wtenv"
)

// runSetup runs the request's [worktree] setup command in the attempt's
// worktree on the worker before the agent, as the coordinator runs it in a
// local phase's: with the phase's variables and ports, within the
// attempt's time limit. It returns how it failed (nil when it passed), and
// whether ctx stopped it. A setup that leaves files git does not ignore
// fails too: the worker's commit would take them as the agent's work.
func runSetup(ctx context.Context, ws Workspace, req AttemptRequest, grace time.Duration, log io.Writer, p Reporter) (*executor.SetupFailure, bool) {
	fmt.Fprintf(log, "# autobuild: setup: %s\n", req.Setup)
	p.SetUp()
	res := wtenv.Script{Command: req.Setup, Dir: ws.Path, Env: scriptEnv(ws, req), Timeout: req.Timeout, Grace: grace,
		Output: log, OnLine: p.Output}.Run(ctx)
	switch {
	case res.Canceled:
		return nil, true
	case res.ExitCode == 0 && !res.TimedOut && res.Err == nil:
		fmt.Fprintf(log, "# autobuild: setup passed in %s\n", res.Duration.Round(time.Millisecond))
		files, err := gitx.StatusFiles(ctx, ws.Path)
		if err != nil {
			return &executor.SetupFailure{How: "reading the worktree after it: " + err.Error()}, ctx.Err() != nil
		}
		if len(files) > 0 {
			return &executor.SetupFailure{How: "it changed files git does not ignore", LeftFiles: files}, false
		}
		return nil, false
	}
	how := fmt.Sprintf("exit %d", res.ExitCode)
	if res.TimedOut {
		how = "stopped at the attempt's time limit " + req.Timeout.String()
	} else if res.Err != nil && res.ExitCode <= 0 {
		how = res.Err.Error()
	}
	fmt.Fprintf(log, "# autobuild: setup failed (%s)\n", how)
	return &executor.SetupFailure{How: how, Tail: clip.Tail(res.Tail, 20)}, false
}

// scriptEnv is the environment of the worktree's setup and teardown: the
// phase's variables and ports, as locally.
func scriptEnv(ws Workspace, req AttemptRequest) []string {
	env := []string{agent.EnvPhaseID + "=" + string(req.PhaseID)}
	if req.PlanInRepo != "" {
		env = append(env, agent.EnvPlan+"="+filepath.Join(ws.Path, filepath.FromSlash(req.PlanInRepo)))
	}
	return append(env, req.WorkEnv...)
}

// teardownLimit bounds the teardown, as locally.
const teardownLimit = 5 * time.Minute

// runTeardown runs the request's [worktree] teardown command in the
// attempt's worktree on the worker, once the worker is done with it (the
// work committed and pushed, its patch taken) and before it is removed,
// as the coordinator runs it in a local phase's worktree once the phase
// is done with it: only where the setup ran, with the same variables,
// within 5 minutes, even when the attempt was stopped. Its output goes to
// the attempt's log; its failure is logged and changes nothing of the
// attempt's outcome.
func runTeardown(ctx context.Context, ws Workspace, req AttemptRequest, grace time.Duration, log io.Writer) {
	fmt.Fprintf(log, "# autobuild: teardown: %s\n", req.Teardown)
	res := wtenv.Script{Command: req.Teardown, Dir: ws.Path, Env: scriptEnv(ws, req), Timeout: teardownLimit, Grace: grace,
		Output: log}.Run(context.WithoutCancel(ctx))
	if res.ExitCode != 0 || res.Err != nil {
		fmt.Fprintf(log, "# autobuild: teardown failed (exit %d): the attempt's outcome stands\n", res.ExitCode)
	}
}
