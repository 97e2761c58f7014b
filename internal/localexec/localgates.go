package localexec

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/autobuild-sh/autobuild/internal/clip"
	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/proc"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// RunGates runs the quality gates in order and stops at the first failure,
// whose evidence it returns with every gate's result. The gates share what
// is left of the attempt's time until deadline; a gate still running then
// is stopped, and the attempt has timed out (timedOut).
func (x *Executor) RunGates(ctx context.Context, a executor.Attempt, obs executor.AttemptObserver, deadline time.Time) (
	failedGate *failure.GateEvidence, timedOut bool, results map[string]state.GateResult, interrupted bool) {
	results = map[string]state.GateResult{}
	for _, g := range a.Gates {
		gr := state.GateResult{Command: g.Command}
		switch {
		case failedGate != nil || timedOut:
			gr.Status = state.GateNotRun
		case g.Skipped():
			gr.Status = state.GateMissing
			gr.OutputSummary = "not run (tool missing: " + g.Tool + ")"
			fmt.Fprintf(a.Log, "\n# autobuild: gate %s not run (tool missing: %s): %s\n", g.Kind, g.Tool, g.Command)
			obs.GateEnded(g.Kind, gr)
		default:
			left := deadline.Sub(x.Now())
			if left <= 0 {
				// The attempt's time is used up (by the agent, or by the gates
				// before this one): this gate cannot run, and is not to blame.
				fmt.Fprintf(a.Log, "\n# autobuild: gate %s not run: the attempt's time limit (%s) is used up\n", g.Kind, a.Timeout)
				gr.Status = state.GateNotRun
				gr.OutputSummary = "not run: the attempt's time limit is used up"
				timedOut = true
				results[g.Kind] = gr
				continue
			}
			fmt.Fprintf(a.Log, "\n# autobuild: gate %s: %s\n", g.Kind, g.Command)
			stream := "gate:" + g.Kind
			res := proc.Run(ctx, proc.Spec{Shell: g.Command, Dir: a.Workspace, Env: a.WorkEnv, Timeout: left, Grace: x.Grace,
				HardStop: x.HardStop, Output: a.Log, OnLine: func(line string) { obs.Output(stream, line) },
				Lines: obs.Lines})
			if res.Canceled {
				return nil, false, nil, true
			}
			gr.ExitCode, gr.DurationSeconds = res.ExitCode, res.Duration.Seconds()
			gr.OutputSummary = clip.Tail(res.Tail, 20)
			switch {
			case res.ExitCode == 0 && !res.TimedOut && res.Err == nil:
				gr.Status, gr.Passed = state.GatePassed, true
				fmt.Fprintf(a.Log, "# autobuild: gate %s passed in %s\n", g.Kind, res.Duration.Round(time.Millisecond))
			case !res.TimedOut && OnlyKnownFailures(knownFailing(a)[g.Kind], res.Tail):
				// --allow-red-base: these tests failed on the base already.
				gr.Status, gr.Passed = state.GatePassed, true
				gr.KnownFailures = len(failure.FailingTests(res.Tail))
				gr.OutputSummary = "passed: it fails only with tests that failed on the run's base already\n" + gr.OutputSummary
				fmt.Fprintf(a.Log, "# autobuild: gate %s failed only with tests that failed on the run's base already: counted as passed\n", g.Kind)
			case res.TimedOut:
				gr.Status = state.GateFailed
				timedOut = true
				fmt.Fprintf(a.Log, "\n# autobuild: gate %s stopped: the attempt's time limit (%s) ran out while it ran\n", g.Kind, a.Timeout)
			default:
				gr.Status = state.GateFailed
				fmt.Fprintf(a.Log, "# autobuild: gate %s failed (exit %d)\n", g.Kind, res.ExitCode)
			}
			if !gr.Passed {
				out := res.Tail
				if res.Err != nil && !res.TimedOut {
					out += "\n" + res.Err.Error()
				}
				failedGate = &failure.GateEvidence{Kind: g.Kind, Command: g.Command, ExitCode: res.ExitCode,
					Output: out, Declared: g.Declared}
			}
			obs.GateEnded(g.Kind, gr)
		}
		results[g.Kind] = gr
	}
	return failedGate, timedOut, results, false
}

// knownFailing is the failing tests the run's base had per gate kind:
// Attempt.BaseFailing's (waiting for the check of the base) when it is
// set, else the request's own (an attempt sent from another machine).
func knownFailing(a executor.Attempt) map[string][]string {
	if a.BaseFailing != nil {
		return a.BaseFailing()
	}
	return a.KnownFailing
}

// OnlyKnownFailures reports whether output names failing tests and every
// one of them is in known.
func OnlyKnownFailures(known []string, output string) bool {
	if len(known) == 0 {
		return false
	}
	names := failure.FailingTests(output)
	if len(names) == 0 {
		return false
	}
	for _, n := range names {
		if !slices.Contains(known, n) {
			return false
		}
	}
	return true
}
