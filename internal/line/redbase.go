package line

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/autobuild-sh/autobuild/internal/clip"
	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/record"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// checkBase runs the gates on the run's base, beside the first agents
// (startBaseCheck), so that no phase is charged for a failure it found there
// (docs/running.md, "The line stays green"). A base whose gates fail
// naming failing tests (the extractors of the classifier) stops the run
// (exit 3, the running agents stopped, none charged) naming the gate and
// those tests, unless
// allowRedBase: then the run goes on, and a gate counts only the failing
// tests the base did not have. It runs once per run: only while no phase
// has made an attempt.
func (v *Verifier) checkBase(ctx context.Context, rec *record.Recorder, pl *plan.Plan, base string, allowRedBase bool) error {
	if anyAttempted(rec, pl) {
		v.markGreen(ctx, base) // the run checked it when it started
		return nil
	}
	failed, err := v.baseline(ctx, base)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("checking the run's base %s with the quality gates: %w", clip.SHA(base), err)
		}
		// The check could not run (no room for its worktree): the run goes
		// on unchecked, and the phases meet the same trouble and name it.
		v.appendLog(fmt.Sprintf("# autobuild: the run's base was not checked: %v\n", err))
		return nil
	}
	// A gate that fails on the base without naming a failing test (no
	// go.mod yet, `test -f out.txt` for the plan's deliverable) is how a
	// greenfield plan's gates start: not a red base.
	failed = slices.DeleteFunc(failed, func(g *failure.GateEvidence) bool { return len(failure.FailingTests(g.Output)) == 0 })
	if len(failed) == 0 {
		return nil
	}
	run := rec.RunCopy()
	var what, kinds []string
	for _, g := range failed {
		w := fmt.Sprintf("gate %s `%s` (failing tests: %s)", g.Kind, g.Command,
			strings.Join(clipNames(failure.FailingTests(g.Output), 8), ", "))
		what = append(what, w)
		kinds = append(kinds, g.Kind)
	}
	if !allowRedBase {
		return exitcode.Refusedf("the quality gates already fail on your branch %s (%s), before the run: %s; the agents were stopped and no phase was charged. "+
			"Fix the base first, or run again with --allow-red-base (a gate then counts only the failures the base does not have; "+
			"the output is in .autobuild/logs/verify.log)", cmp.Or(run.Branch, "HEAD"), clip.SHA(base), strings.Join(what, "; "))
	}
	v.baseFailing = map[string][]string{}
	for _, g := range failed {
		v.baseFailing[g.Kind] = failure.FailingTests(g.Output)
	}
	rec.UpdateRun(func(r *state.Run) { verification(r).RedBase = kinds })
	return nil
}

// baseline runs every gate on commit (each failure run again once, as a
// flaky one is no failure) and returns those that failed. Unlike verify it
// does not stop at the first failure: --allow-red-base needs each gate's
// known failures. The tree is remembered as green: what fails there is the
// base's.
func (v *Verifier) baseline(ctx context.Context, commit string) ([]*failure.GateEvidence, error) {
	tree, err := v.Repo.TreeOf(ctx, commit)
	if err != nil {
		return nil, err
	}
	if err := v.Repo.CheckoutDetached(ctx, v.Dir, commit); err != nil {
		return nil, err
	}
	var log strings.Builder
	defer func() { v.appendLog(log.String()) }()
	env, release, err := v.readyDir(ctx, v.Dir, &log)
	if err != nil {
		return nil, err
	}
	defer release()
	began := time.Now()
	defer func() { v.ran(time.Since(began)) }()
	fmt.Fprintf(&log, "\n# autobuild: checking the run's base %s (tree %s)\n", commit, tree)
	var failed []*failure.GateEvidence
	for _, g := range v.Gates {
		if g.Skipped() {
			continue
		}
		// A gate that ran out of time is not run again: it names no test,
		// so it is no red base either way.
		ev, timedOut, err := v.runGateTimed(ctx, g, v.Dir, env, &log)
		if err == nil && ev != nil && !timedOut {
			ev, err = v.runGate(ctx, g, v.Dir, env, &log)
		}
		if err != nil {
			return nil, err
		}
		if ev != nil {
			failed = append(failed, ev)
		}
	}
	v.remember(tree, verdict{}, true)
	return failed, nil
}

// anyAttempted reports whether any phase of the run has made an attempt.
func anyAttempted(rec *record.Recorder, pl *plan.Plan) bool {
	for _, p := range pl.Phases {
		ps := rec.Get(p.ID)
		if ps.Status == state.PhaseComplete {
			return true
		}
		for _, a := range ps.Attempts {
			if a.Outcome == state.OutcomeComplete || a.Outcome == state.OutcomeFailed {
				return true // interrupted ones (a red base stops them) do not count
			}
		}
	}
	return false
}

// StartBaseCheck checks the run's base beside the first phases
// (checkBase): a red base stops them (stop) before any is judged or
// charged. awaitBase waits for the verdict.
func (v *Verifier) StartBaseCheck(ctx context.Context, rec *record.Recorder, pl *plan.Plan, base string, allowRedBase bool, stop func()) {
	v.baseDone = make(chan struct{})
	go func() {
		defer close(v.baseDone)
		if err := v.checkBase(ctx, rec, pl, base, allowRedBase); err != nil {
			v.baseErr = err
			stop()
		}
	}()
}

// AwaitBase waits for the check of the run's base and returns its
// refusal (nil when the base is green, allowed red, or not checked). A
// phase's attempt waits for it before it is judged, so that none is
// charged for its base.
func (v *Verifier) AwaitBase(ctx context.Context) error {
	if v == nil || v.baseDone == nil {
		return nil
	}
	select {
	case <-v.baseDone:
		return v.baseErr
	case <-ctx.Done():
		return ctx.Err()
	}
}

// knownFailing is the failing tests the base had, per gate kind, once the
// base check has ended (--allow-red-base); nil when there are none.
func (v *Verifier) knownFailing() map[string][]string {
	if v == nil {
		return nil
	}
	if v.baseDone != nil {
		<-v.baseDone
	}
	return v.baseFailing
}

func clipNames(names []string, n int) []string {
	if len(names) <= n {
		return names
	}
	return append(names[:n:n], fmt.Sprintf("and %d more", len(names)-n))
}
