package remote

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/proc"
	"github.com/autobuild-sh/autobuild/internal/state"
)

type recObserver struct {
	mu     sync.Mutex
	ended  int
	gates  []string
	worker string
}

func (o *recObserver) Output(stream, line string) {}
func (o *recObserver) Action(tool, text string)   {}
func (o *recObserver) AgentEnded(executor.Result) {
	o.mu.Lock()
	o.ended++
	o.mu.Unlock()
}
func (o *recObserver) GateEnded(kind string, r state.GateResult) {
	o.mu.Lock()
	o.gates = append(o.gates, kind)
	o.mu.Unlock()
}
func (o *recObserver) Lines() proc.LineMode { return proc.LinesAll }

// A worker's result becomes the engine's evidence as a local attempt's
// would: gates heard in order, the log's tail in the attempt log, a usage
// limit as the agent's rate-limit signal with its reset, the machinery's
// failure as the executor's error.
func TestExecutorEvidenceFromResults(t *testing.T) {
	ctx := context.Background()
	ws, _, head := newRepos(t)
	var log bytes.Buffer
	a := executor.Attempt{Request: executor.Request{DisplayID: "1", Base: head}, Workspace: ws, Log: &log}
	x := &Executor{}

	obs := &recObserver{}
	ev := x.evidence(ctx, ws, a, obs, AttemptResult{Worker: "w1", LogTail: "agent done\x1b[31m",
		Result: executor.Result{Evidence: failure.Evidence{AgentRan: true},
			Gates: map[string]state.GateResult{"test": {Status: state.GatePassed}, "build": {Status: state.GatePassed}}}}, head)
	if ev.Fault != nil || ev.Interrupted || obs.ended != 1 || strings.Join(obs.gates, ",") != "build,test" {
		t.Fatalf("evidence %+v, observer %+v", ev, obs)
	}
	if !strings.Contains(log.String(), "worker w1's log") || strings.Contains(log.String(), "\x1b") {
		t.Errorf("attempt log: %q", log.String())
	}

	reset := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	ev = x.evidence(ctx, ws, a, &recObserver{}, AttemptResult{Limit: &Limit{ResetsAt: reset, Message: "limit",
		Result: &AttemptResult{Result: executor.Result{Evidence: failure.Evidence{AgentRan: true, AgentExitCode: 1}}}}}, head)
	if s := ev.AgentSignal; s == nil || s.Type != failreport.RateLimited || !s.ResetsAt.Equal(reset) || ev.AgentExitCode != 1 {
		t.Fatalf("a usage limit's evidence: %+v", ev.Evidence)
	}

	ev = x.evidence(ctx, ws, a, &recObserver{}, AttemptResult{Result: executor.Result{Fault: &executor.Fault{Message: "every worker died"}}}, head)
	if ev.Fault == nil || !strings.Contains(ev.Fault.Message, "every worker died") {
		t.Fatalf("infrastructure failure: %v", ev.Fault)
	}
	obs = &recObserver{}
	ev = x.evidence(ctx, ws, a, obs, AttemptResult{Result: executor.Result{Interrupted: true}}, head)
	if !ev.Interrupted || obs.ended != 1 {
		t.Fatalf("interrupted: %+v", ev)
	}
}
