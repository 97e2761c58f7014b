package summary

import (
	"strings"

	"github.com/autobuild-sh/autobuild/internal/budget"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// limitsOf are the run's budgets as run.json records them.
func limitsOf(r *state.Run) budget.Limits {
	if r == nil {
		return budget.Limits{}
	}
	return budget.Limits{Run: r.MaxCostUSD, Phase: r.MaxPhaseCostUSD}
}

// budgetSection shows the spend against the budget, per phase, and the
// agents it could not count, when the run has a budget.
func budgetSection(b *box, in Input) {
	l := limitsOf(in.Run)
	if !l.Set() {
		return
	}
	s := budget.Of(in.Phases)
	b.section("BUDGET")
	line := "Spent: " + budget.Line(l, s)
	if l.Phase > 0 {
		line += ", at most " + state.Cost(l.Phase) + " a phase"
	}
	b.text(line, 7)
	for _, p := range s.Phases {
		b.dotted("Phase "+string(p.DisplayID.Or(p.PhaseID)), state.Cost(p.USD))
	}
	if len(s.Unpriced) > 0 {
		b.text("Not counted (no cost reported, no known rate): "+strings.Join(s.Unpriced, ", "), 2)
	}
}

// ResumeCommand is in's resume command, with a higher budget when the run
// halted for its budget (budget_exceeded): the flag of the budget that was
// reached is replaced by one that leaves room (budget.Higher).
func ResumeCommand(in Input) string {
	cmd := in.ResumeCommand
	r := in.Run
	if cmd == "" || r == nil || r.Status != state.RunHalted || r.HaltType != failreport.BudgetExceeded {
		return cmd
	}
	l := limitsOf(r)
	s := budget.Of(in.Phases)
	if l.RunReached(s) {
		cmd = withFlag(cmd, "--max-cost", budget.Amount(budget.Higher(l.Run, s.USD)))
	}
	if l.Phase > 0 {
		most := 0.0
		for _, p := range s.Phases {
			most = max(most, p.USD)
		}
		if l.PhaseReached(most) {
			cmd = withFlag(cmd, "--max-phase-cost", budget.Amount(budget.Higher(l.Phase, most)))
		}
	}
	return cmd
}

// withFlag replaces a flag's value in a command line (--flag V or
// --flag=V), or adds the flag before the trailing --resume.
func withFlag(cmd, flag, value string) string {
	words := strings.Fields(cmd)
	var out []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == flag && i+1 < len(words):
			i++
			continue
		case strings.HasPrefix(w, flag+"="):
			continue
		}
		out = append(out, w)
	}
	add := []string{flag, value}
	if n := len(out); n > 0 && out[n-1] == "--resume" {
		return strings.Join(append(append(out[:n-1:n-1], add...), "--resume"), " ")
	}
	return strings.Join(append(out, add...), " ")
}
