// Package event defines what the engine tells the world while it runs. The
// plain printer, the JSON printer and the TUI are all consumers of the same
// stream; the engine knows none of them.
package event

import (
	"time"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// Kind names an event.
type Kind string

// Event kinds, in roughly the order a run produces them.
const (
	RunStarted    Kind = "run_started"
	BatchStarted  Kind = "batch_started"
	PhaseSkipped  Kind = "phase_skipped"  // the plan marks it done, or an earlier run completed it
	PhaseStarted  Kind = "phase_started"  // an attempt began
	PhaseOutput   Kind = "phase_output"   // one line of agent or gate output
	AgentAction   Kind = "agent_action"   // a preset agent called a tool (Tool, Line: "Write calc/format.go")
	GateResult    Kind = "gate_result"    // one gate finished
	PhaseFailed   Kind = "phase_failed"   // an attempt failed (Failure set)
	PhaseRetrying Kind = "phase_retrying" // the retry is about to start
	// PhaseWaiting: a rate-limited phase waits for its provider's limit to
	// lift (Until); sent when the wait starts and every few minutes.
	PhaseWaiting     Kind = "phase_waiting"
	PhaseInterrupted Kind = "phase_interrupted"
	PhaseCompleted   Kind = "phase_completed"  // agent and gates succeeded
	PhaseIntegrated  Kind = "phase_integrated" // its commit is on the run's line
	PhaseBlocked     Kind = "phase_blocked"
	RunHalted        Kind = "run_halted"
	RunInterrupted   Kind = "run_interrupted"
	RunComplete      Kind = "run_complete"
)

// WorktreeReady says what a phase's worktree got before its agent started
// (the ignored files brought in, the setup command); sent once per run
// without a phase, it says how the files are brought in (Line).
const WorktreeReady Kind = "worktree_ready"

// Event kinds about what a run may spend.
const (
	// BudgetReached: a budget (--max-cost, --max-phase-cost) is reached
	// and no new attempt starts (Failure is its budget_exceeded report;
	// PhaseID is set for a phase's own budget).
	BudgetReached Kind = "budget_reached"
	// AgentQuota: an agent CLI reported its provider's usage limit
	// (Agent, Quota), sent when it changes; while it is low the run
	// starts fewer phases at once.
	AgentQuota Kind = "agent_quota"
)

// PhaseWorker: a remote worker (--executor temporal) took the phase's
// attempt; Line names it.
const PhaseWorker Kind = "phase_worker"

// PhaseVerifying: the phase's gates passed on its own base, and its change
// is being verified on top of what landed meanwhile (Line: "on top of
// phase 2A, phase 2C").
const PhaseVerifying Kind = "phase_verifying"

// Event kinds of a run reviewed by a person (--review, docs/running.md).
const (
	// PhaseAwaitingReview: the phase's gates passed and it waits for a
	// person's decision before it lands (Line says how to give it).
	PhaseAwaitingReview Kind = "phase_awaiting_review"
	// PhaseReviewed: a person decided (Line: "approved", "rejected: NOTE",
	// "rechecking the gates").
	PhaseReviewed Kind = "phase_reviewed"
	// PhaseSteered: a person's note stops the running attempt, which
	// continues with it without using up the retry (Line: the note).
	PhaseSteered Kind = "phase_steered"
)

// The Line of a PhaseReviewed event that is not a rejection ("rejected:
// NOTE").
const (
	ReviewApproved   = "approved"
	ReviewRechecking = "checking the gates again on the changed worktree"
)

// Droppable reports whether a slow consumer may miss the event: output
// lines and tool calls are progress, shown live and kept in the attempt
// log; every other event changes what a consumer shows.
func (k Kind) Droppable() bool { return k == PhaseOutput || k == AgentAction }

// Terminal reports whether the event ends the run.
func (k Kind) Terminal() bool {
	return k == RunHalted || k == RunInterrupted || k == RunComplete
}

// Event is one thing that happened. Fields that do not apply are zero.
type Event struct {
	Kind        Kind            `json:"event"`
	Time        time.Time       `json:"time"`
	PhaseID     phaseid.ID      `json:"phase_id,omitempty"`
	DisplayID   phaseid.Display `json:"display_id,omitempty"`
	PhaseName   string          `json:"phase_name,omitempty"`
	Batch       int             `json:"batch,omitempty"`
	Attempt     int             `json:"attempt,omitempty"`
	MaxAttempts int             `json:"max_attempts,omitempty"`
	Agent       string          `json:"agent,omitempty"`
	// Line is a line of output (PhaseOutput), or a human sentence for other
	// kinds (a skip's reason, a halt's reason).
	Line string `json:"line,omitempty"`
	// Stream is "agent", "agent:stderr" or "gate:<kind>" for PhaseOutput.
	Stream string `json:"stream,omitempty"`
	// Tool is the tool an agent called (AgentAction): "Write", "Bash".
	Tool    string             `json:"tool,omitempty"`
	Gate    *Gate              `json:"gate,omitempty"`
	Failure *failreport.Report `json:"failure,omitempty"`
	Commit  *state.Commit      `json:"commit,omitempty"`
	// BlockedBy names the failed phases (display ids) blocking a phase.
	BlockedBy []phaseid.Display `json:"blocked_by,omitempty"`
	// Phases lists the display ids of a batch (BatchStarted).
	Phases []phaseid.Display `json:"phases,omitempty"`
	// PhaseIDs lists the same phases' ids, in the same order (BatchStarted):
	// a display id ("2-A") does not give its id ("2a").
	PhaseIDs []phaseid.ID `json:"phase_ids,omitempty"`
	// Duration is the attempt's or the run's duration, where one ended.
	DurationSeconds float64 `json:"duration_seconds,omitempty"`
	// Usage is what an attempt cost (PhaseCompleted, PhaseFailed) or the
	// whole run so far (RunHalted, RunComplete, RunInterrupted), as the
	// preset agent CLIs reported it; nil when none reported any.
	Usage *state.Usage `json:"usage,omitempty"`
	// Until is when a waiting phase (PhaseWaiting) runs again.
	Until *time.Time `json:"until,omitempty"`
	// Budget is the run's budgets and spend (RunStarted, BudgetReached and
	// the run's last event), when a budget is set.
	Budget *Budget `json:"budget,omitempty"`
	// Quota is an agent's usage-limit headroom (AgentQuota).
	Quota *Quota `json:"quota,omitempty"`
}

// Quota is what an agent CLI said of its provider's usage limit
// (AgentQuota).
type Quota struct {
	// Type is the window ("five_hour", "seven_day"), "" when not said.
	Type string `json:"type,omitempty"`
	// Status is "allowed", "allowed_warning" or "rejected".
	Status string `json:"status,omitempty"`
	// Utilization is the share of the window used (0 to 1), nil when not
	// said.
	Utilization *float64   `json:"utilization,omitempty"`
	ResetsAt    *time.Time `json:"resets_at,omitempty"`
	// Parallel is how many phases the run now starts at once at most, of
	// MaxParallel (--max-parallel).
	Parallel    int `json:"parallel"`
	MaxParallel int `json:"max_parallel"`
}

// Budget is a run's budgets in US dollars (0: none) and what it has spent
// so far, priced as package budget prices it.
type Budget struct {
	MaxCostUSD      float64 `json:"max_cost_usd,omitempty"`
	MaxPhaseCostUSD float64 `json:"max_phase_cost_usd,omitempty"`
	SpentUSD        float64 `json:"spent_usd"`
}

// Gate describes a finished gate (GateResult).
type Gate struct {
	Kind            string  `json:"kind"`
	Command         string  `json:"command"`
	Status          string  `json:"status"` // state.GatePassed, GateFailed, GateMissing
	ExitCode        int     `json:"exit_code"`
	DurationSeconds float64 `json:"duration_seconds"`
	// KnownFailures is state.GateResult's: the base's failing tests a gate
	// counted as passed under --allow-red-base failed with.
	KnownFailures int `json:"known_failures,omitempty"`
}

// Sink receives events. Emit must not block for long: the engine calls it
// from its phases' goroutines.
type Sink interface {
	Emit(Event)
}

// SinkFunc adapts a function to Sink.
type SinkFunc func(Event)

// Emit calls f.
func (f SinkFunc) Emit(e Event) { f(e) }

// Discard is a Sink that drops everything.
var Discard Sink = SinkFunc(func(Event) {})
