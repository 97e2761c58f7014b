package localexec

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/proc"
	"github.com/autobuild-sh/autobuild/internal/sanitize"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// acpDrainWait bounds how long the conversation may take to notice that
// the agent's process is gone.
const acpDrainWait = 5 * time.Second

// runACP runs an agent that speaks ACP: the engine starts its process as
// any other and speaks the protocol over its stdin and stdout
// (agent.ACPSession). Its stdout (the agent's side of the conversation)
// goes to the attempt's .stream file; the log and the UI get the tool
// calls, plans and message lines. When the turn ends the process is
// stopped (an ACP agent is a server and does not exit); a timeout or
// Ctrl-C sends session/cancel before the process group is stopped.
func (x *Executor) runACP(ctx context.Context, a executor.Attempt, spec proc.Spec, obs executor.AttemptObserver, ad *agent.ACPAdapter) AgentRun {
	log := a.Log
	showLines := obs.Lines() != proc.LinesNone
	var mu sync.Mutex // keeps the log's lines whole
	show := func(stream string, n agent.Note) {
		mu.Lock()
		defer mu.Unlock()
		if n.Tool != "" {
			fmt.Fprintf(log, "→ %s\n", n.Text)
			obs.Action(n.Tool, n.Text)
			return
		}
		prefix := ""
		if stream != "agent" {
			prefix = "stderr: "
		}
		fmt.Fprintf(log, "%s%s\n", prefix, n.Text)
		if showLines {
			obs.Output(stream, n.Text)
		}
	}
	note := func(msg string) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(log, "# autobuild: %s\n", sanitize.Line(msg))
	}
	sess := ad.Session(agent.ACPConfig{Dir: a.Workspace, Prompt: a.Prompt, Load: a.Session,
		Show: func(n agent.Note) { show("agent", n) }, Log: note})

	inR, inW, err := os.Pipe()
	if err != nil {
		return AgentRun{Result: proc.Result{ExitCode: -1, Err: fmt.Errorf("creating the agent's input pipe: %w", err)}}
	}
	defer inR.Close()
	defer inW.Close()
	outR, outW := io.Pipe()

	var streamOut io.Writer = outW
	if stream, err := proc.CreateCapped(a.StreamPath, x.LogCap); err == nil {
		defer stream.Close()
		streamOut = io.MultiWriter(stream, outW)
		fmt.Fprintf(log, "# autobuild: %s speaks ACP; its side of the conversation is in %s\n", a.Agent.Name, state.RelPath(x.Root, a.StreamPath))
	} else {
		fmt.Fprintf(log, "# autobuild: the agent's side of the ACP conversation is not kept: %v\n", err)
	}
	spec.Stdin = inR
	spec.Output = streamOut
	spec.OnLine, spec.Lines = nil, nil
	spec.OnStderrLine = func(line string) {
		for _, n := range sess.Stderr(line) {
			show("agent:stderr", n)
		}
	}
	spec.Finish = sess.Done()
	spec.BeforeStop = sess.Cancel

	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	go func() {
		sess.Run(sctx, inW, outR)
		// Whatever the agent still prints is read, so that its process
		// never blocks on a full pipe.
		_, _ = io.Copy(io.Discard, outR)
	}()
	res := proc.Run(ctx, spec)
	outW.Close()
	select {
	case <-sess.Done():
	case <-time.After(acpDrainWait):
		cancel()
		<-sess.Done()
	}
	out, code := sess.Outcome(res.ExitCode)
	if res.Finished {
		fmt.Fprintf(log, "# autobuild: the agent's turn ended; its process was stopped\n")
	}
	res.ExitCode = code
	run := AgentRun{Result: res, Output: out.Said, Final: out.Final, Usage: out.Usage, Session: out.Session}
	if s := out.Signal; s != nil {
		run.Signal = &failure.AgentSignal{Type: s.Type, Message: s.Message, Fix: s.Fix}
		fmt.Fprintf(log, "# autobuild: %s reported: %s: %s\n", a.Agent.Name, s.Type, s.Message)
	}
	if u := out.Usage; u != nil {
		fmt.Fprintf(log, "# autobuild: usage: %s\n", u.Summary())
	}
	return run
}
