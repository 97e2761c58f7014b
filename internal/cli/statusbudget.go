package cli

import (
	"strings"

	"github.com/autobuild-sh/autobuild/internal/budget"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// budgetJSON is the run's budgets and spend in `status --json` (and the
// Budget line of plain status): the limits run.json recorded, and the
// spend priced from every attempt's usage.
type budgetJSON struct {
	budget.Limits
	budget.Spend
	Reached bool `json:"reached"`
}

// budgetOf is nil for a run without a budget.
func budgetOf(snap *state.Snapshot) *budgetJSON {
	l := budget.Limits{Run: snap.Run.MaxCostUSD, Phase: snap.Run.MaxPhaseCostUSD}
	if !l.Set() {
		return nil
	}
	s := budget.Of(snap.Phases)
	reached := l.RunReached(s)
	for _, p := range s.Phases {
		reached = reached || l.PhaseReached(p.USD)
	}
	return &budgetJSON{Limits: l, Spend: s, Reached: reached}
}

func (b *budgetJSON) line() string {
	out := budget.Line(b.Limits, b.Spend)
	if b.Phase > 0 {
		out += ", at most " + state.Cost(b.Phase) + " a phase"
	}
	if b.Reached {
		out += " (reached)"
	}
	if len(b.Unpriced) > 0 {
		out += "; not counted: " + strings.Join(b.Unpriced, ", ")
	}
	return out
}
