package schedule

import (
	"context"
	"sync/atomic"

	"github.com/autobuild-sh/autobuild/internal/budget"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/failreport"
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

// BudgetGuard is the scheduler's view of the budgets.
type BudgetGuard struct {
	Limits budget.Limits
	// Hard stops the running attempts once the run's budget is reached.
	Hard bool
	// stop ends the running attempts' context (set by execute).
	stop    context.CancelFunc
	running atomic.Int32
	// reached is set once the first budget is reached (one event).
	reached atomic.Bool
}

// spend is the run's spend so far, every phase in plan order.
func (s *Scheduler) spend() budget.Spend {
	phases := make([]*state.Phase, 0, len(s.Plan.Phases))
	for _, p := range s.Plan.Phases {
		ps := s.Rec.Get(p.ID)
		phases = append(phases, &ps)
	}
	return budget.Of(phases)
}

// budgetStop is a budget that keeps an attempt from starting.
type budgetStop struct {
	rep failreport.Report
	// phase is set when it is the phase's own budget (--max-phase-cost).
	phase bool
}

// overBudget says which budget keeps an attempt of p from starting, nil
// while it may start.
func (s *Scheduler) overBudget(p *plan.Phase) *budgetStop {
	l := s.Budget.Limits
	if !l.Set() {
		return nil
	}
	if l.Phase > 0 {
		ps := s.Rec.Get(p.ID)
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
func (s *Scheduler) refuse(p *plan.Phase, number int, b *budgetStop) AttemptResult {
	rep := b.rep
	rep.Attempt = number
	rep.SuggestedActions = failure.Suggest(rep)
	if b.phase {
		s.Rec.Phase(p.ID, func(ps *state.Phase) {
			ps.Status = state.PhaseFailed
			ps.Error = &rep
		})
		s.mu.Lock()
		s.Failed[p.ID] = &rep
		s.mu.Unlock()
	}
	if first := s.Budget.reached.CompareAndSwap(false, true); first || b.phase {
		e := event.Event{Kind: event.BudgetReached, Line: rep.Message, Failure: &rep, Budget: s.BudgetNow()}
		if b.phase {
			e.PhaseID, e.DisplayID, e.PhaseName = p.ID, p.DisplayID, p.Name
		}
		s.Rec.Emit(e)
	}
	return AttemptResult{Outcome: outcomeNotStarted, Report: &rep, Halt: "budget_exceeded: " + rep.Message}
}

// afterSpend runs when an attempt has ended: with --max-cost-hard and the
// run's budget reached, the attempts still running are stopped (they run
// again on resume) and the run halts.
func (s *Scheduler) afterSpend() {
	l := s.Budget.Limits
	if !s.Budget.Hard || l.Run <= 0 || s.Budget.running.Load() == 0 || s.Budget.stop == nil {
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
		s.HaltReport = &rep
	}
	s.mu.Unlock()
	if s.Budget.reached.CompareAndSwap(false, true) {
		s.Rec.Emit(event.Event{Kind: event.BudgetReached, Line: rep.Message, Failure: &rep, Budget: s.BudgetNow()})
	}
	s.Budget.stop()
}

// attemptContext is the context the runner's attempts run in: ctx, or the
// one a hard budget stop ends (set by execute before any attempt).
func (s *Scheduler) attemptContext(ctx context.Context) context.Context {
	if s.attemptCtx != nil {
		return s.attemptCtx
	}
	return ctx
}

// BudgetLine is the spend against the budget, for the run's first line.
func BudgetLine(l budget.Limits) string {
	var out string
	if l.Run > 0 {
		out = ", budget " + state.Cost(l.Run)
	}
	if l.Phase > 0 {
		out += ", " + state.Cost(l.Phase) + " per phase"
	}
	return out
}

func (s *Scheduler) BudgetNow() *event.Budget {
	l := s.Budget.Limits
	if !l.Set() {
		return nil
	}
	return &event.Budget{MaxCostUSD: l.Run, MaxPhaseCostUSD: l.Phase, SpentUSD: s.spend().USD}
}
