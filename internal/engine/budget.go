package engine

import (
	"context"
	"sync/atomic"

	"github.com/autobuild-sh/autobuild/internal/budget"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// Budgets (--max-cost, --max-phase-cost). The spend is known when an
// agent ends (the CLIs report it with their result), so a budget is
// checked before every attempt starts: a first attempt, a retry, the
// repeat after a limit. Once reached, no attempt starts, the running ones
// finish (or are stopped, with --max-cost-hard, as soon as an ending
// attempt shows the run's budget reached), and the run halts with
// budget_exceeded.

// outcomeNotStarted is an attempt the budget did not let start.
const outcomeNotStarted = "not_started"

// budgetGuard is the scheduler's view of the budgets.
type budgetGuard struct {
	limits budget.Limits
	// hard stops the running attempts once the run's budget is reached.
	hard bool
	// stop ends the running attempts' context (set by execute).
	stop    context.CancelFunc
	running atomic.Int32
	// reached is set once the first budget is reached (one event).
	reached atomic.Bool
}

// spend is the run's spend so far, every phase in plan order.
func (s *scheduler) spend() budget.Spend {
	phases := make([]*state.Phase, 0, len(s.plan.Phases))
	for _, p := range s.plan.Phases {
		ps := s.rec.Get(p.ID)
		phases = append(phases, &ps)
	}
	return budget.Of(phases)
}

// budgetStop is a budget that keeps an attempt from starting.
type budgetStop struct {
	rep failure.Report
	// phase is set when it is the phase's own budget (--max-phase-cost).
	phase bool
}

// overBudget says which budget keeps an attempt of p from starting, nil
// while it may start.
func (s *scheduler) overBudget(p *plan.Phase) *budgetStop {
	l := s.budget.limits
	if !l.Set() {
		return nil
	}
	if l.Phase > 0 {
		ps := s.rec.Get(p.ID)
		if usd := budget.PhaseUSD(&ps); l.PhaseReached(usd) {
			return &budgetStop{rep: budget.Report(l, s.spend(), p.DisplayID, usd), phase: true}
		}
	}
	if l.Run > 0 {
		if sp := s.spend(); l.RunReached(sp) {
			return &budgetStop{rep: budget.Report(l, sp, "", 0)}
		}
	}
	return nil
}

// refuse records that p's next attempt did not start for the budget: a
// phase's own budget fails the phase; the run's leaves it as it was
// (pending, or failed from its last attempt). The run's budget is said
// once, in a BudgetReached event; each phase's own, for that phase.
func (s *scheduler) refuse(p *plan.Phase, number int, b *budgetStop) attemptResult {
	rep := b.rep
	rep.Attempt = number
	rep.SuggestedActions = failure.Suggest(rep)
	if b.phase {
		s.rec.Phase(p.ID, func(ps *state.Phase) {
			ps.Status = state.PhaseFailed
			ps.Error = &rep
		})
		s.mu.Lock()
		s.failed[p.ID] = &rep
		s.mu.Unlock()
	}
	if first := s.budget.reached.CompareAndSwap(false, true); first || b.phase {
		e := event.Event{Kind: event.BudgetReached, Line: rep.Message, Failure: &rep, Budget: s.budgetNow()}
		if b.phase {
			e.PhaseID, e.DisplayID, e.PhaseName = p.ID, p.DisplayID, p.Name
		}
		s.rec.Emit(e)
	}
	return attemptResult{Outcome: outcomeNotStarted, Report: &rep, Halt: "budget_exceeded: " + rep.Message}
}

// afterSpend runs when an attempt has ended: with --max-cost-hard and the
// run's budget reached, the attempts still running are stopped (they run
// again on resume) and the run halts.
func (s *scheduler) afterSpend() {
	l := s.budget.limits
	if !s.budget.hard || l.Run <= 0 || s.budget.running.Load() == 0 || s.budget.stop == nil {
		return
	}
	sp := s.spend()
	if !l.RunReached(sp) {
		return
	}
	rep := budget.Report(l, sp, "", 0)
	rep.Message += "; the running attempts were stopped (--max-cost-hard)"
	rep.SuggestedActions = failure.Suggest(rep)
	s.mu.Lock()
	if s.halt == "" {
		s.halt = "budget_exceeded: " + rep.Message
		s.haltReport = &rep
	}
	s.mu.Unlock()
	if s.budget.reached.CompareAndSwap(false, true) {
		s.rec.Emit(event.Event{Kind: event.BudgetReached, Line: rep.Message, Failure: &rep, Budget: s.budgetNow()})
	}
	s.budget.stop()
}

// attemptContext is the context the runner's attempts run in: ctx, or the
// one a hard budget stop ends (set by execute before any attempt).
func (s *scheduler) attemptContext(ctx context.Context) context.Context {
	if s.attemptCtx != nil {
		return s.attemptCtx
	}
	return ctx
}

// budgetLine is the spend against the budget, for the run's first line.
func budgetLine(l budget.Limits) string {
	var out string
	if l.Run > 0 {
		out = ", budget " + state.Cost(l.Run)
	}
	if l.Phase > 0 {
		out += ", " + state.Cost(l.Phase) + " per phase"
	}
	return out
}

// budgetNow is the run's budgets and spend for an event, nil without a
// budget.
func (lr *liveRun) budgetNow() *event.Budget {
	if lr.sched == nil {
		return nil
	}
	return lr.sched.budgetNow()
}

func (s *scheduler) budgetNow() *event.Budget {
	l := s.budget.limits
	if !l.Set() {
		return nil
	}
	return &event.Budget{MaxCostUSD: l.Run, MaxPhaseCostUSD: l.Phase, SpentUSD: s.spend().USD}
}
