// Package budget is what a run may spend and what it has spent: the
// limits of --max-cost and --max-phase-cost, the spend per phase from the
// attempts' usage (priced by the CLIs, or by the rate table), and the
// budget_exceeded report. It is data only: the engine enforces the limits.
package budget

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// Limits are a run's budgets in US dollars; 0 is no limit.
type Limits struct {
	// Run is --max-cost: the whole run, across its resumes.
	Run float64 `json:"max_cost_usd,omitempty"`
	// Phase is --max-phase-cost: each phase, across its attempts.
	Phase float64 `json:"max_phase_cost_usd,omitempty"`
}

// Set reports whether any budget is set.
func (l Limits) Set() bool { return l.Run > 0 || l.Phase > 0 }

// PhaseSpend is one phase's spend.
type PhaseSpend struct {
	PhaseID   phaseid.ID      `json:"phase_id"`
	DisplayID phaseid.Display `json:"display_id"`
	USD       float64         `json:"usd"`
}

// Spend is what a run has spent so far.
type Spend struct {
	USD float64 `json:"spent_usd"`
	// Phases lists the phases that spent anything, in the order given.
	Phases []PhaseSpend `json:"phases,omitempty"`
	// Unpriced names the agents whose attempts reported neither a cost nor
	// tokens of a model in the rate table: their spend is not counted.
	Unpriced []string `json:"unpriced_agents,omitempty"`
}

// Of sums the spend of phases' attempts (every attempt, across resumes).
func Of(phases []*state.Phase) Spend {
	var s Spend
	for _, p := range phases {
		if p == nil {
			continue
		}
		usd := 0.0
		for _, a := range p.Attempts {
			cost, priced := Price(a.Usage)
			if !priced && a.Outcome != state.OutcomeRunning && a.Outcome != state.OutcomeInterrupted &&
				a.Agent != "" && !slices.Contains(s.Unpriced, a.Agent) {
				s.Unpriced = append(s.Unpriced, a.Agent)
			}
			usd += cost
		}
		if usd > 0 {
			s.Phases = append(s.Phases, PhaseSpend{PhaseID: p.PhaseID, DisplayID: p.DisplayID, USD: usd})
			s.USD += usd
		}
	}
	return s
}

// PhaseUSD is one phase's spend across its attempts.
func PhaseUSD(p *state.Phase) float64 {
	usd := 0.0
	for _, a := range p.Attempts {
		cost, _ := Price(a.Usage)
		usd += cost
	}
	return usd
}

// RunReached reports whether the run's spend has reached its budget.
func (l Limits) RunReached(s Spend) bool { return l.Run > 0 && s.USD >= l.Run }

// PhaseReached reports whether a phase's spend has reached its budget.
func (l Limits) PhaseReached(usd float64) bool { return l.Phase > 0 && usd >= l.Phase }

// Higher is the budget to offer on resume after limit was reached with
// spent: twice the limit, or half as much again as was spent when that is
// more, rounded up to whole dollars (cents below $1).
func Higher(limit, spent float64) float64 {
	v := max(2*limit, 1.5*spent)
	if v < 1 {
		return math.Ceil(v*100) / 100
	}
	return math.Ceil(v)
}

// Amount writes a budget for a command line: "10", "2.5", "0.25".
func Amount(usd float64) string {
	s := fmt.Sprintf("%.2f", usd)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

// Line is the spend against the budget in one line: "$3.20 of $5.00".
func Line(l Limits, s Spend) string {
	if l.Run > 0 {
		return state.Cost(s.USD) + " of " + state.Cost(l.Run)
	}
	return state.Cost(s.USD)
}

// Report is the budget_exceeded report of a run whose spend reached its
// budget (phase empty), or of a phase whose own spend reached its budget.
func Report(l Limits, s Spend, phase phaseid.Display, phaseUSD float64) failreport.Report {
	var msg string
	if phase != "" {
		msg = fmt.Sprintf("phase %s spent %s, reaching its budget of %s (--max-phase-cost): no new attempt starts",
			phase, state.Cost(phaseUSD), state.Cost(l.Phase))
	} else {
		msg = fmt.Sprintf("the run spent %s, reaching its budget of %s (--max-cost): no new attempt starts",
			state.Cost(s.USD), state.Cost(l.Run))
	}
	return failreport.Report{Type: failreport.BudgetExceeded, Message: msg, Details: Details(s), Retryable: false}
}

// Details lists the spend per phase, and the agents that were not priced.
func Details(s Spend) string {
	var b strings.Builder
	b.WriteString("spend per phase:")
	if len(s.Phases) == 0 {
		b.WriteString(" none reported")
	}
	for _, p := range s.Phases {
		fmt.Fprintf(&b, "\n  %s: %s", p.DisplayID.Or(p.PhaseID), state.Cost(p.USD))
	}
	if len(s.Unpriced) > 0 {
		fmt.Fprintf(&b, "\nnot counted (reported no cost, and no rate is known): %s", strings.Join(s.Unpriced, ", "))
	}
	return b.String()
}
