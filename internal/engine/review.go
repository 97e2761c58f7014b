package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/line"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/sanitize"
	"github.com/autobuild-sh/autobuild/internal/schedule"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// The review hold (--review, docs/running.md "Reviewing before landing") is
// one step of the phase runner between "the gates passed" and landing: the
// phase's work is kept under a ref, its status becomes awaiting_review, and
// the runner waits for a person's decision in .autobuild/review/<id>.json,
// written by `autobuild review` or the TUI. Other phases go on meanwhile:
// only the phases that depend on this one wait for it to land.

// DefaultReviewPoll is how often a phase awaiting review looks for a
// decision: a stat of one small file.
const DefaultReviewPoll = 250 * time.Millisecond

// reviewEnd is how a hold ended.
type reviewEnd int

const (
	reviewApproved reviewEnd = iota
	reviewRejected
	// reviewGateFailed: a person changed the worktree and a gate failed
	// on the change (recheck).
	reviewGateFailed
	// reviewStopped: the run stopped (Ctrl-C) while the phase waited; it
	// still awaits review, and a resume holds it again.
	reviewStopped
)

// reviewMode is the run's review mode.
func (r *phaseRunner) reviewMode() state.ReviewMode { return r.rec.RunCopy().Review }

// reviewRef keeps the work of phase id while it awaits review.
func (r *phaseRunner) reviewRef(id phaseid.ID) string {
	ref := "refs/autobuild-review/"
	if runID := r.rec.RunCopy().RunID; runID != "" {
		ref += runID + "/"
	}
	return ref + string(state.FileIDOf(id))
}

// holdForReview keeps a phase whose gates passed from landing until a
// person decides, when the run reviews phases. It returns the decision
// (nil unless rejected) and how the hold ended; an error is autobuild's
// own trouble keeping the work.
func (r *phaseRunner) holdForReview(ctx context.Context, t *attemptTrack, wt, base, msg string) (reviewEnd, *state.ReviewDecision, error) {
	if !r.reviewMode().Holds() {
		return reviewApproved, nil, nil
	}
	p := t.p
	tree, err := gitx.SnapshotTree(ctx, wt)
	if err != nil {
		return reviewStopped, nil, fmt.Errorf("taking the change for review: %w", err)
	}
	ref := r.reviewRef(p.ID)
	if _, err := r.spaces.repo.KeepTree(ctx, ref, tree, base, fmt.Sprintf("autobuild: phase %s awaiting review\n", p.DisplayID)); err != nil {
		return reviewStopped, nil, err
	}
	// A decision about an earlier hold of the phase is not about this one.
	if err := r.store.RemoveReviewDecision(p.ID); err != nil {
		return reviewStopped, nil, err
	}
	hold := state.ReviewHold{Since: r.cfg.Now(), Attempt: t.req.Number, Base: base, Tree: tree, Ref: ref,
		Message: msg, DiffPath: r.rel(r.writeReviewDiff(ctx, p.ID, wt, base))}
	r.rec.AwaitingReview(p.ID, hold)
	return r.awaitReview(ctx, t, hold)
}

// awaitReview announces the hold and waits for its decision. A request to
// check the gates again (after a person changed the worktree) runs them
// and holds the new change. The phase's slot goes to another phase while
// it waits (schedule/reviewslots.go).
func (r *phaseRunner) awaitReview(ctx context.Context, t *attemptTrack, hold state.ReviewHold) (reviewEnd, *state.ReviewDecision, error) {
	p := t.p
	if t.req.Held != nil {
		t.req.Held()
	}
	var d *state.ReviewDecision
	for {
		r.rec.Emit(phaseEvent(event.PhaseAwaitingReview, p, t.req.Number, event.Event{Agent: t.req.Agent.Name,
			Line: fmt.Sprintf("review it with: autobuild review %s (--approve, or --reject --note TEXT)", p.DisplayID)}))
		var err error
		d, err = r.awaitDecision(ctx, p.ID, hold.Tree)
		if err == nil && d.Decision == state.DecisionRecheck {
			r.rec.Emit(phaseEvent(event.PhaseReviewed, p, t.req.Number, event.Event{Line: event.ReviewRechecking}))
			var rep *failreport.Report
			hold, rep, err = r.recheck(ctx, t, hold)
			if err == nil && rep != nil {
				t.recheckFailed = rep
				return reviewGateFailed, nil, nil
			}
			if err == nil {
				continue
			}
		}
		if err != nil {
			if ctx.Err() != nil {
				r.rec.ReviewStopped(p.ID, t.started, r.cfg.Now())
				return reviewStopped, nil, nil
			}
			return reviewStopped, nil, err
		}
		break
	}
	if d.Decision == state.DecisionReject {
		r.rec.Emit(phaseEvent(event.PhaseReviewed, p, t.req.Number, event.Event{Line: "rejected: " + sanitize.Line(d.Note)}))
		return reviewRejected, d, nil
	}
	r.rec.ReviewApproved(p.ID)
	r.rec.Emit(phaseEvent(event.PhaseReviewed, p, t.req.Number, event.Event{Line: event.ReviewApproved}))
	return reviewApproved, d, nil
}

// awaitDecision waits for the decision on the hold of tree, and takes it
// (its file is removed). Decisions of another hold are ignored.
func (r *phaseRunner) awaitDecision(ctx context.Context, id phaseid.ID, tree string) (*state.ReviewDecision, error) {
	poll := r.cfg.ReviewPoll
	if poll <= 0 {
		poll = DefaultReviewPoll
	}
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		// A file that cannot be read as a decision (written by hand, half
		// copied) decides nothing: the phase keeps waiting for one.
		d, err := r.store.LoadReviewDecision(id)
		if err == nil && d != nil && (d.Tree == "" || d.Tree == tree) && knownDecision(d.Decision) {
			if err := r.store.RemoveReviewDecision(id); err != nil {
				return nil, err
			}
			return d, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-tick.C:
		}
	}
}

// writeReviewDiff keeps the change under review as a patch, and returns
// its path ("" when it could not be written: the review then shows the
// worktree's diff).
func (r *phaseRunner) writeReviewDiff(ctx context.Context, id phaseid.ID, wt, base string) string {
	diff, err := gitx.DiffWorkingTree(ctx, wt, base)
	if err != nil {
		return ""
	}
	path := r.store.ReviewDiffPath(id)
	if os.MkdirAll(filepath.Dir(path), 0o755) != nil || os.WriteFile(path, []byte(diff), 0o644) != nil {
		return ""
	}
	return path
}

// rejected is the failure a rejection records: the note is the retry's
// context, in its prompt like a gate's output.
func rejected(d *state.ReviewDecision) failreport.Report {
	note := sanitize.Text(d.Note)
	rep := failreport.Report{Type: failreport.ReviewRejected, Retryable: failreport.ReviewRejected.Retryable(),
		Message: "a reviewer rejected the change"}
	if note != "" {
		rep.Message += ": " + sanitize.Line(note)
		rep.Details = "The reviewer's note:\n\n" + note
	}
	return rep
}

// endHold forgets the kept work of a phase that landed or was rejected.
func (r *phaseRunner) endHold(ctx context.Context, id phaseid.ID) {
	ctx = context.WithoutCancel(ctx)
	_ = r.spaces.repo.DeleteRef(ctx, r.reviewRef(id))
	_ = os.Remove(r.store.ReviewDiffPath(id))
}

// resumeReview holds again a phase that awaited review when the run
// stopped: its worktree is made again from the kept work, and nothing is
// run before the decision.
func (r *phaseRunner) resumeReview(ctx context.Context, t *attemptTrack, hold state.ReviewHold) schedule.AttemptResult {
	p := t.p
	wt, err := r.spaces.prepareAt(ctx, p.ID, p.DisplayID, hold.Base)
	if err == nil {
		_, err = gitx.RestoreTree(ctx, wt, hold.Tree)
	}
	if err != nil {
		if ctx.Err() != nil {
			return schedule.AttemptResult{Outcome: state.OutcomeInterrupted}
		}
		return r.fail(t, infraFailure(t.req, fmt.Errorf("restoring the work awaiting review: %w", err)))
	}
	r.rec.Phase(p.ID, func(ps *state.Phase) { ps.Worktree = r.rel(wt) })
	// The new worktree is made ready as for an attempt (wtenv.go): the
	// gates run again in review need its files and ports.
	log, lerr := os.OpenFile(r.store.AttemptLogPath(p.ID, t.seq), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if lerr != nil {
		return r.fail(t, infraFailure(t.req, fmt.Errorf("opening the attempt log: %w", lerr)))
	}
	defer log.Close()
	env := r.readyWorktree(ctx, t, wt, false, log)
	defer env.release()
	switch {
	case env.interrupted:
		return schedule.AttemptResult{Outcome: state.OutcomeInterrupted}
	case env.failed != nil:
		return r.fail(t, *env.failed)
	}
	t.workEnv = env.vars
	t.landed = func() { r.wtenv.teardown(ctx, p.ID, append(r.phaseVars(p.ID), env.vars...), log) }
	end, d, err := r.awaitReview(ctx, t, hold)
	return r.afterReview(ctx, t, end, d, err, line.Handover{Workspace: wt, Base: hold.Base, AgentMessage: hold.Message})
}

// afterReview lands an approved change, or fails a rejected one.
func (r *phaseRunner) afterReview(ctx context.Context, t *attemptTrack, end reviewEnd, d *state.ReviewDecision, err error, h line.Handover) schedule.AttemptResult {
	switch {
	case err != nil:
		return r.fail(t, infraFailure(t.req, err))
	case end == reviewStopped:
		return schedule.AttemptResult{Outcome: state.OutcomeInterrupted}
	case end == reviewGateFailed:
		r.rec.Phase(t.p.ID, func(ps *state.Phase) { ps.Review = nil })
		res := r.fail(t, *t.recheckFailed)
		r.endHold(ctx, t.p.ID)
		return res
	case end == reviewRejected:
		r.rec.Note(t.p.ID, state.Note{Time: r.cfg.Now(), Kind: "review", Attempt: t.req.Number, Text: sanitize.Text(d.Note)})
		res := r.fail(t, rejected(d))
		r.endHold(ctx, t.p.ID)
		return res
	}
	// The person may have looked a while, and may have changed the
	// worktree: everything in it is staged, and your checkout is read
	// again, so landing follows its rules as things are now.
	h.Known = gitx.Known{}
	res := r.landAttempt(ctx, t, h, r.integ.Guard.Snapshot(ctx))
	r.endHold(ctx, t.p.ID)
	return res
}

// knownDecision reports whether a decision file says something the hold
// acts on; anything else is left for a person to notice.
func knownDecision(d string) bool {
	return d == state.DecisionApprove || d == state.DecisionReject || d == state.DecisionRecheck
}
