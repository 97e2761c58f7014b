package engine

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/autobuild-sh/autobuild/internal/clip"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/localexec"
	"github.com/autobuild-sh/autobuild/internal/proc"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// recheck runs the gates again on what a person changed in the worktree of
// a phase awaiting review (the TUI's editor or shell), and returns the hold
// of the new change. Nothing lands unless the gates pass: a gate that fails
// now fails the attempt as it would have after the agent (its report), and
// the retry gets it as context.
func (r *phaseRunner) recheck(ctx context.Context, t *attemptTrack, hold state.ReviewHold) (state.ReviewHold, *failreport.Report, error) {
	p := t.p
	wt := r.spaces.path(p.ID)
	tree, err := gitx.SnapshotTree(ctx, wt)
	if err != nil {
		return hold, nil, fmt.Errorf("reading the change for review: %w", err)
	}
	log, err := os.OpenFile(r.store.AttemptLogPath(p.ID, t.seq), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return hold, nil, fmt.Errorf("opening the attempt log: %w", err)
	}
	defer log.Close()
	fmt.Fprintf(log, "\n# autobuild: the gates again, on the change as a person left it in review\n")
	obs := &attemptObserver{rec: r.rec, p: p, number: t.req.Number}
	results := map[string]state.GateResult{}
	var failedGate *failure.GateEvidence
	for _, g := range r.gates {
		gr := state.GateResult{Command: g.Command}
		switch {
		case failedGate != nil:
			gr.Status = state.GateNotRun
		case g.Skipped():
			gr.Status, gr.OutputSummary = state.GateMissing, "not run (tool missing: "+g.Tool+")"
		default:
			fmt.Fprintf(log, "\n# autobuild: gate %s: %s\n", g.Kind, g.Command)
			stream := "gate:" + g.Kind
			res := proc.Run(ctx, proc.Spec{Shell: g.Command, Dir: wt, Env: t.workEnv, Timeout: r.cfg.PhaseTimeout, Grace: r.cfg.Grace,
				HardStop: r.cfg.HardStop, Output: log, OnLine: func(line string) { obs.Output(stream, line) }, Lines: obs.Lines})
			if res.Canceled {
				return hold, nil, ctx.Err()
			}
			gr.ExitCode, gr.DurationSeconds = res.ExitCode, res.Duration.Seconds()
			gr.OutputSummary = clip.Tail(res.Tail, 20)
			if res.ExitCode == 0 && !res.TimedOut && res.Err == nil {
				gr.Status, gr.Passed = state.GatePassed, true
				fmt.Fprintf(log, "# autobuild: gate %s passed in %s\n", g.Kind, res.Duration.Round(time.Millisecond))
			} else if !res.TimedOut && localexec.OnlyKnownFailures(r.integ.BaseFailing()[g.Kind], res.Tail) {
				// --allow-red-base: as after the agent (localexec/localgates.go).
				gr.Status, gr.Passed = state.GatePassed, true
				gr.KnownFailures = len(failure.FailingTests(res.Tail))
				gr.OutputSummary = "passed: it fails only with tests that failed on the run's base already\n" + gr.OutputSummary
				fmt.Fprintf(log, "# autobuild: gate %s failed only with tests that failed on the run's base already: counted as passed\n", g.Kind)
			} else {
				gr.Status = state.GateFailed
				fmt.Fprintf(log, "# autobuild: gate %s failed (exit %d)\n", g.Kind, res.ExitCode)
				failedGate = &failure.GateEvidence{Kind: g.Kind, Command: g.Command, ExitCode: res.ExitCode,
					Output: res.Tail, Declared: g.Declared}
			}
		}
		if gr.Status != state.GateNotRun {
			obs.GateEnded(g.Kind, gr)
		}
		results[g.Kind] = gr
	}
	// What the gates wrote does not land, as after the agent.
	if err := localexec.RestoreAfterGates(ctx, wt, tree, log); err != nil {
		return hold, nil, err
	}
	r.rec.GatesChecked(p.ID, results, failedGate == nil)
	if failedGate != nil {
		// The change is a person's, not an agent's claim: it is judged by
		// the gate alone, with the files it holds.
		files, _ := localexec.ChangedFiles(ctx, wt)
		if len(files) == 0 {
			files = []string{"."}
		}
		rep := r.classify(failure.Evidence{Attempt: t.req.Number, AgentRan: true, Gate: failedGate, Worktree: wt, FilesChanged: files}, t.req)
		rep.Message = "after a change in review: " + rep.Message
		return hold, &rep, nil
	}
	if _, err := r.spaces.repo.KeepTree(ctx, hold.Ref, tree, hold.Base, fmt.Sprintf("autobuild: phase %s awaiting review\n", p.DisplayID)); err != nil {
		return hold, nil, err
	}
	hold.Tree, hold.Since = tree, r.cfg.Now()
	hold.DiffPath = r.rel(r.writeReviewDiff(ctx, p.ID, wt, hold.Base))
	r.rec.AwaitingReview(p.ID, hold)
	return hold, nil, nil
}
