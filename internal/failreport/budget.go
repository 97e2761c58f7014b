package failreport

// BudgetExceeded means the run's spend reached --max-cost, or a phase's
// reached max_phase_cost: no new attempt starts and the run halts, with
// the spend per phase (docs/failures.md). Running it again spends more,
// so it is not retried; a resume with a higher budget goes on.
const BudgetExceeded Type = "budget_exceeded"
