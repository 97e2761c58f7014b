package engine

import (
	"cmp"
	"context"
	"fmt"

	"github.com/autobuild-sh/autobuild/internal/crashpoint"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/runstart"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// finish writes the run's final state, lands the line for the end-of-run
// commit modes, cleans up after a complete run and emits the terminal event.
func (lr *liveRun) finish(ctx context.Context, status state.RunStatus, reason string, spaces *workspaces) (Result, error) {
	cfg, repo, store, rec, res := lr.cfg, lr.repo, lr.store, lr.rec, lr.res
	run := rec.RunCopy()
	finalCommit := ""
	cleaned := false
	if status == state.RunComplete {
		phases := orderedPhases(cfg.Plan, rec)
		sha, err := lr.integ.Finish(ctx, cfg.Plan.Title, phases, store)
		switch {
		case err != nil:
			status, reason = state.RunHalted, "all phases completed, but landing them failed: "+err.Error()
		default:
			finalCommit = sha
			reason = cmp.Or(lr.strategy.CompleteReason(sha, run.Branch), reason)
		}
		if err == nil {
			// The run's own branches only: autobuild/<run-id>/…, or for a
			// run without an id its fixed names one by one.
			refs := state.RefsOf(run)
			_ = repo.CleanStale(ctx, store.WorktreesDir(), refs.Prefix())
			if refs.Prefix() == "" {
				_ = runstart.DeletePhaseBranches(ctx, repo, refs, cfg.Plan)
				_ = repo.DeleteBranch(ctx, refs.Integration())
			}
			cleaned = true
		}
	}
	if !cleaned {
		// The landed phases' worktrees and branches, which the clean-up of
		// a complete run takes with the rest.
		spaces.removeSpares(ctx)
	}
	tip := lr.integ.Tip()
	if !cleaned {
		// In auto mode your branch was the line while phases landed; the
		// line's branch takes it up once, as the session ends.
		lr.strategy.SessionEnd(ctx, repo, state.RefsOf(run), tip)
	}
	now := cfg.Now().UTC()
	rec.UpdateRun(func(r *state.Run) {
		r.Status, r.HaltReason, r.Finished = status, reason, &now
		r.IntegrationCommit = tip
		if finalCommit != "" {
			r.FinalCommit = finalCommit
		}
		if status == state.RunComplete {
			r.HaltReason = ""
		}
		if status == state.RunHalted && lr.sched != nil && lr.sched.HaltReport != nil {
			r.HaltType = lr.sched.HaltReport.Type
		}
	})
	crashpoint.At("run-recorded", string(status))
	kind := map[state.RunStatus]event.Kind{state.RunComplete: event.RunComplete,
		state.RunInterrupted: event.RunInterrupted}[status]
	if kind == "" {
		kind = event.RunHalted
	}
	wall := rec.RunCopy()
	last := event.Event{Kind: kind, Line: reason, DurationSeconds: wall.WallSeconds(), Usage: rec.Usage(), Budget: lr.budgetNow()}
	if kind == event.RunHalted && lr.sched != nil && lr.sched.HaltReport != nil {
		// What the halt is about: its failure, and its phase when one
		// failed (a notification names both).
		last.Failure = lr.sched.HaltReport
		if p := lr.sched.HaltPhase; p != nil {
			last.PhaseID, last.DisplayID, last.PhaseName = p.ID, p.DisplayID, p.Name
		}
	}
	rec.Emit(last)
	res.Status, res.Reason = status, reason
	if err := rec.Failed(); err != nil {
		return res, fmt.Errorf("the run's state could not be written completely: %w", err)
	}
	return res, nil
}
