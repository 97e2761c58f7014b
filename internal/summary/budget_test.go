package summary

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// budgetInput is haltedInput's run halted by its budget of $5 after
// phases 0 and 1 spent $5.40, with a plain command that reports no cost.
func budgetInput() Input {
	in := haltedInput()
	in.Run.HaltType = failreport.BudgetExceeded
	in.Run.MaxCostUSD = 5
	in.Run.HaltReason = "budget_exceeded: the run spent $5.40, reaching its budget of $5.00 (--max-cost): no new attempt starts"
	in.Phases[0].Attempts = []state.Attempt{{Agent: "claude", Outcome: state.OutcomeComplete, Usage: &state.Usage{CostUSD: 1.4}}}
	in.Phases[1].Attempts = []state.Attempt{{Agent: "claude", Outcome: state.OutcomeComplete, Usage: &state.Usage{CostUSD: 4}}}
	in.Phases[2].Attempts = []state.Attempt{{Agent: "./agent.sh", Outcome: state.OutcomeComplete}}
	in.ResumeCommand = "autobuild plan.md --agent claude --max-cost 5 --resume"
	return in
}

// A budget halt shows the spend per phase, names what was not counted,
// and offers the resume command with a higher budget.
func TestBudgetHaltSummaryGolden(t *testing.T) {
	got := Render(budgetInput(), 80)
	golden(t, "halt-budget-80.txt", got)
	require.Contains(t, got, "autobuild plan.md --agent claude --max-cost 10 --resume")
	require.Contains(t, got, "./agent.sh")
}

func TestResumeCommandRaisesTheBudgetReached(t *testing.T) {
	t.Parallel()
	in := budgetInput()
	in.ResumeCommand = "autobuild plan.md --max-cost=5 --max-phase-cost 9 --resume"
	require.Equal(t, "autobuild plan.md --max-phase-cost 9 --max-cost 10 --resume", ResumeCommand(in))
	in.Run.MaxCostUSD, in.Run.MaxPhaseCostUSD = 0, 3
	require.Equal(t, in.ResumeCommand, ResumeCommand(in), "phase 1 spent $4 of its $3, but it is complete: nothing to raise")
	in.Phases[3].Attempts = []state.Attempt{{Agent: "claude", Outcome: state.OutcomeFailed, Usage: &state.Usage{CostUSD: 4}}}
	require.Equal(t, "autobuild plan.md --max-cost=5 --max-phase-cost 6 --resume", ResumeCommand(in), "phase 2B spent $4 of its $3")
	in.Run.MaxCostUSD, in.Run.MaxPhaseCostUSD = 20, 0
	in.Run.HaltType = failreport.TestFailure
	require.Equal(t, in.ResumeCommand, ResumeCommand(in), "other halts within the budget keep the command")
}

// A halt of another type whose spend reached the budget (the last
// attempts went past it) offers the higher budget too: the resume keeps
// the run's budget, and the command as it was would halt at once.
func TestResumeCommandRaisesTheBudgetAfterAnotherHalt(t *testing.T) {
	t.Parallel()
	in := budgetInput()
	in.Run.HaltType = failreport.TestFailure
	in.Run.HaltReason = "Phase 2B failed after retry (test_failure)"
	require.Equal(t, "autobuild plan.md --agent claude --max-cost 10 --resume", ResumeCommand(in))
	in.Run.Status = state.RunInterrupted
	require.Equal(t, "autobuild plan.md --agent claude --max-cost 10 --resume", ResumeCommand(in))
	in.Run.Status = state.RunRunning // a budget_reached notification's
	require.Equal(t, "autobuild plan.md --agent claude --max-cost 10 --resume", ResumeCommand(in))
	in.Run.Status = state.RunComplete
	require.Equal(t, in.ResumeCommand, ResumeCommand(in))
}

// A run the red base stopped (exit 3: the gates already failed on the base,
// no phase judged or charged) says first to fix the base, not to resume.
func TestRedBaseHaltSummarySaysFixTheBaseFirst(t *testing.T) {
	in := haltedInput()
	in.Run.HaltType = failreport.RedBase
	in.Run.HaltReason = "the quality gates already fail on your branch main (1111111), before the run: gate test `go test ./...` " +
		"(failing tests: TestOld); the agents were stopped and no phase was charged. Fix the base first, or run again with " +
		"--allow-red-base (a gate then counts only the failures the base does not have; the output is in .autobuild/logs/verify.log)"
	in.Phases = []*state.Phase{{PhaseID: "1", DisplayID: "1", PhaseName: "One", Status: state.PhasePending, MaxAttempts: 2,
		Attempts: []state.Attempt{{Number: 1, Outcome: state.OutcomeInterrupted}}}}
	got := Render(in, 80)
	golden(t, "halt-red-base-80.txt", got)
	require.Contains(t, got, "║ 1. Fix the base first: the quality gates already fail on your branch before")
	require.Contains(t, got, "--allow-red-base")
}
