package localexec

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/proc"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// AgentRun is what running the agent produced, read the way its kind of
// agent is read.
type AgentRun struct {
	Result proc.Result
	// Output is the agent's text for the classifier's patterns; Final, the
	// text its result object is read from. For a plain command both are
	// its whole output's tail; for a preset CLI, output is what the CLI
	// said about a failure and final its final message only.
	Output, Final string
	Signal        *failure.AgentSignal
	Usage         *state.Usage
	// Session is the CLI's session or thread id, "" when it named none.
	Session string
}

// RunAgent runs the agent described by spec. A plain command (or the sim)
// runs as it always did, its stdout and stderr merged. A preset agent CLI
// runs through its adapter: its stdout and stderr are kept apart and fed to
// its parser; the raw stdout (the CLI's event stream) goes to the attempt's
// .stream file, and the attempt log and the UI get what the parser shows:
// one line per tool call and the agent's message lines.
func (x *Executor) RunAgent(ctx context.Context, a executor.Attempt, spec proc.Spec, obs executor.AttemptObserver) AgentRun {
	log := a.Log
	if acp := agent.ACPAdapterFor(a.Agent); acp != nil {
		return x.runACP(ctx, a, spec, obs, acp)
	}
	ad := agent.AdapterFor(a.Agent)
	if ad == nil {
		res := proc.Run(ctx, spec)
		return AgentRun{Result: res, Output: res.Tail, Final: res.Tail}
	}
	parser := ad.NewParser(a.Prompt, a.Workspace)
	// The parser reads every line of the CLI's stream whoever shows them;
	// only the lines it shows are subject to the consumers' interest.
	spec.Lines = nil
	showLines := obs.Lines() != proc.LinesNone
	stream, err := proc.CreateCapped(a.StreamPath, x.LogCap)
	if err == nil {
		defer stream.Close()
		spec.Output = stream
		fmt.Fprintf(log, "# autobuild: the agent's raw output stream is in %s\n", state.RelPath(x.Root, a.StreamPath))
	} else {
		spec.Output = nil
		fmt.Fprintf(log, "# autobuild: the agent's raw output stream is not kept: %v\n", err)
	}

	// The parser's notes arrive from two goroutines (stdout and stderr);
	// mu keeps their lines whole in the log.
	var mu sync.Mutex
	abort := make(chan struct{})
	var stopped *agent.Signal
	show := func(stream string, notes []agent.Note) {
		mu.Lock()
		defer mu.Unlock()
		for _, n := range notes {
			if n.Quota != nil {
				// The provider's quota, as the CLI reported it: the
				// scheduler's headroom (schedule/quota.go), not a line to show.
				fmt.Fprintf(log, "# autobuild: %s quota: %s\n", a.Agent.Name, quotaLogText(*n.Quota))
				if qo, ok := obs.(executor.QuotaObserver); ok {
					qo.Quota(a.Agent.Name, *n.Quota)
				}
				continue
			}
			if n.Tool != "" {
				fmt.Fprintf(log, "→ %s\n", n.Text)
				obs.Action(n.Tool, n.Text)
			} else {
				prefix := ""
				if stream != "agent" {
					prefix = "stderr: "
				}
				fmt.Fprintf(log, "%s%s\n", prefix, n.Text)
				if showLines {
					obs.Output(stream, n.Text)
				}
			}
			if n.Signal != nil && stopped == nil {
				// The CLI reported what no retry of its own can fix (a
				// refused key): stop it now rather than after its
				// retries.
				stopped = n.Signal
				fmt.Fprintf(log, "# autobuild: stopping the agent: %s\n", n.Signal.Message)
				close(abort)
			}
		}
	}
	spec.OnLine = func(line string) { show("agent", parser.Stdout(line)) }
	spec.OnStderrLine = func(line string) { show("agent:stderr", parser.Stderr(line)) }
	spec.Abort = abort
	res := proc.Run(ctx, spec)
	out := parser.Finish(res.ExitCode)
	mu.Lock()
	if stopped != nil {
		out.Signal = stopped
	}
	mu.Unlock()
	run := AgentRun{Result: res, Output: out.Said, Final: out.Final, Usage: out.Usage, Session: out.Session}
	if s := out.Signal; s != nil {
		run.Signal = &failure.AgentSignal{Type: s.Type, Message: s.Message, Fix: s.Fix, ResetsAt: s.ResetsAt}
		fmt.Fprintf(log, "# autobuild: %s reported: %s: %s\n", a.Agent.Name, s.Type, s.Message)
	}
	if out.Session != "" {
		fmt.Fprintf(log, "# autobuild: %s session %s\n", a.Agent.Name, out.Session)
	}
	if u := out.Usage; u != nil {
		fmt.Fprintf(log, "# autobuild: usage: %s\n", u.Summary())
	}
	return run
}

// quotaLogText is a quota in the attempt log: "five_hour allowed_warning,
// 86% used, resets 2026-03-01T05:00:00Z".
func quotaLogText(q agent.Quota) string {
	out := q.Type + " " + q.Status
	if q.Utilization >= 0 {
		out += ", " + strconv.Itoa(int(math.Round(q.Utilization*100))) + "% used"
	}
	if !q.ResetsAt.IsZero() {
		out += ", resets " + q.ResetsAt.UTC().Format(time.RFC3339)
	}
	return out
}
