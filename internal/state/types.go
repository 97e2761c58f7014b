package state

import (
	"time"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// SchemaVersion is written to run.json; a newer version is refused.
const SchemaVersion = 1

// RunStatus is the status of the run as a whole.
type RunStatus string

// Run statuses (docs/state.md).
const (
	RunRunning     RunStatus = "running"
	RunComplete    RunStatus = "complete"
	RunHalted      RunStatus = "halted"
	RunInterrupted RunStatus = "interrupted"
)

// Run is .autobuild/run.json.
type Run struct {
	SchemaVersion int        `json:"schema_version"`
	PlanPath      string     `json:"plan_path"`
	PlanHash      string     `json:"plan_hash"`
	PlanTitle     string     `json:"plan_title"`
	CommitMode    CommitMode `json:"commit_mode"`
	// Schedule is batches or eager; a resume keeps it unless --schedule
	// is given. Empty in runs recorded before schedules (batches).
	Schedule Schedule `json:"schedule,omitempty"`
	Agents   []string `json:"agents"`
	// AgentSpecs are the --agent values that give the agents back, and
	// Scenario the simulated agent's scenario file: a resume without --agent
	// runs the same agents.
	AgentSpecs []string `json:"agent_specs,omitempty"`
	Scenario   string   `json:"scenario,omitempty"`
	// AllowEmptyPhases: the run was started with --allow-empty-phases, so
	// its resume runs bodiless phases from their table rows too.
	AllowEmptyPhases bool `json:"allow_empty_phases,omitempty"`
	// Branch is the branch the run integrates onto (empty when detached).
	Branch string `json:"branch"`
	// BaseCommit is HEAD when the run first started.
	BaseCommit string `json:"base_commit"`
	// IntegrationCommit is the tip of the run's line: every completed phase
	// up to now, integrated. In auto mode, where your branch is the line, it
	// is written when the run starts or resumes, not as each phase lands.
	// The line's branch is the truth; this is where it is made again from
	// when the branch is missing.
	IntegrationCommit string `json:"integration_commit"`
	// ReplayFrom is set while --resume replays the run's line onto fix
	// commits (message-only and single modes): the line's tip before the
	// replay, from which a replay cut short by a kill starts over.
	ReplayFrom string `json:"replay_from,omitempty"`
	// FinalCommit is the one commit of --commit=single, once it is made.
	FinalCommit string    `json:"final_commit,omitempty"`
	Status      RunStatus `json:"status"`
	// HaltReason says why a halted or interrupted run stopped.
	HaltReason string     `json:"halt_reason,omitempty"`
	PID        int        `json:"pid"`
	Started    time.Time  `json:"started"`
	Updated    time.Time  `json:"updated"`
	Finished   *time.Time `json:"finished,omitempty"`
	// HistoryNote is what the history across runs says about how this run
	// ended, when it says something ("phase 2B has failed with
	// test_failure in 3 of its last 4 runs"); the summary shows it.
	HistoryNote string `json:"history_note,omitempty"`
	// SessionStarted is when the latest start or resume began, and
	// ActiveSeconds the time spent running in the sessions that ended
	// before it: the wall time, without the time spent halted between
	// sessions.
	SessionStarted *time.Time `json:"session_started,omitempty"`
	ActiveSeconds  float64    `json:"active_seconds,omitempty"`
	// MaxCostUSD and MaxPhaseCostUSD are the budgets of the latest session
	// (--max-cost, --max-phase-cost; 0: none): a resume keeps them unless
	// a flag or autobuild.toml gives others.
	MaxCostUSD      float64 `json:"max_cost_usd,omitempty"`
	MaxPhaseCostUSD float64 `json:"max_phase_cost_usd,omitempty"`
	// HaltType is the failure type a halted run stopped for (the first
	// one), such as budget_exceeded; empty for other statuses.
	HaltType failreport.Type `json:"halt_type,omitempty"`
	// RunID names the run's branches (autobuild/<run_id>/…): the run
	// deletes only branches under it. Empty for runs started before ids.
	RunID string `json:"run_id,omitempty"`
	// Verify is how the run verifies what lands together: "landing" or
	// "off" (docs/running.md, "The line stays green"); empty in runs
	// recorded before it (landing). LineVerification counts what it did.
	Verify           string            `json:"verify,omitempty"`
	LineVerification *LineVerification `json:"line_verification,omitempty"`
	// Review is the run's review mode (--review); a resume keeps it unless
	// the flag or autobuild.toml names another. Empty: none.
	Review ReviewMode `json:"review,omitempty"`
}

// WallSeconds is how long the run has run: its sessions' time, halted time
// between them excluded. A run from before sessions were recorded counts
// from its first start.
func (r *Run) WallSeconds() float64 {
	if r.Finished == nil {
		return 0
	}
	if r.SessionStarted == nil {
		return r.Finished.Sub(r.Started).Seconds()
	}
	return r.ActiveSeconds + max(0, r.Finished.Sub(*r.SessionStarted).Seconds())
}

// PhaseStatus is the status of one phase in the run.
type PhaseStatus string

// Phase statuses (docs/state.md).
const (
	PhasePending  PhaseStatus = "pending"
	PhaseRunning  PhaseStatus = "running"
	PhaseComplete PhaseStatus = "complete"
	PhaseFailed   PhaseStatus = "failed"
	PhaseBlocked  PhaseStatus = "blocked"
	PhaseSkipped  PhaseStatus = "skipped"
)

// Phase is .autobuild/phases/phase-<id>.json.
type Phase struct {
	PhaseID      phaseid.ID      `json:"phase_id"`
	DisplayID    phaseid.Display `json:"display_id"`
	PhaseName    string          `json:"phase_name"`
	Batch        int             `json:"batch"`
	Status       PhaseStatus     `json:"status"`
	Attempt      int             `json:"attempt"`
	MaxAttempts  int             `json:"max_attempts"`
	Timestamps   Timestamps      `json:"timestamps"`
	Dependencies Dependencies    `json:"dependencies"`
	Agent        string          `json:"agent,omitempty"`
	Tasks        Tasks           `json:"tasks"`
	// QualityGates is keyed by gate kind (test, lint, ...).
	QualityGates map[string]GateResult `json:"quality_gates,omitempty"`
	Verification Verification          `json:"verification"`
	Commit       *Commit               `json:"commit,omitempty"`
	// Attempts holds every attempt ever made, across resumes.
	Attempts []Attempt `json:"attempts,omitempty"`
	// Error is the current failure, if the phase failed.
	Error *failreport.Report `json:"error,omitempty"`
	// BlockedBy names the failed phases (display ids) that block this one.
	BlockedBy []phaseid.Display `json:"blocked_by,omitempty"`
	// LastOutput is the last line the phase printed, for watchers.
	LastOutput string `json:"last_output,omitempty"`
	// Worktree is where the phase's current attempt runs or ran, relative to
	// the repository root.
	Worktree string `json:"worktree,omitempty"`
	// Review is set while the phase awaits review (review.go).
	Review *ReviewHold `json:"review,omitempty"`
	// Notes are the notes a person sent to steer or review the phase,
	// oldest first.
	Notes []Note `json:"notes,omitempty"`
}

// Note is a person's note to a phase: a rejection in review, or a steer.
type Note struct {
	Time time.Time `json:"time"`
	// Kind is "review" or "steer".
	Kind    string `json:"kind"`
	Attempt int    `json:"attempt"`
	Text    string `json:"text"`
}

// Timestamps of a phase's latest attempt.
type Timestamps struct {
	Started         *time.Time `json:"started,omitempty"`
	Completed       *time.Time `json:"completed,omitempty"`
	DurationSeconds float64    `json:"duration_seconds"`
}

// Dependencies of a phase, as normalized ids.
type Dependencies struct {
	DependsOn    []phaseid.ID `json:"depends_on"`
	ParallelWith []phaseid.ID `json:"parallel_with"`
	Blocks       []phaseid.ID `json:"blocks"`
}

// Tasks counts the phase's task checkboxes (from the plan, or from the agent's
// result object when it reports them).
type Tasks struct {
	Total     int `json:"total"`
	Completed int `json:"completed"`
}

// Gate result statuses.
const (
	GatePassed  = "passed"
	GateFailed  = "failed"
	GateNotRun  = "not_run"      // an earlier gate failed, or the run stopped
	GateMissing = "tool_missing" // a detected gate whose tool is not installed
)

// GateResult is the outcome of one quality gate in the engine's own run.
type GateResult struct {
	Command string `json:"command"`
	Passed  bool   `json:"passed"`
	// Status is one of GatePassed, GateFailed, GateNotRun, GateMissing.
	Status          string  `json:"status"`
	ExitCode        int     `json:"exit_code"`
	DurationSeconds float64 `json:"duration_seconds"`
	OutputSummary   string  `json:"output_summary,omitempty"`
	// KnownFailures is, for a gate counted as passed under --allow-red-base,
	// how many failing tests it named, every one failing on the run's base
	// already (0 for a gate that passed outright).
	KnownFailures int `json:"known_failures,omitempty"`
}

// Verification compares the agent's claim with the engine's own gates.
type Verification struct {
	// AgentClaimed is "complete", "failed" or "" (no result object; judged
	// by exit code).
	AgentClaimed string `json:"agent_claimed"`
	// FreshVerification is "passed", "failed" or "" (not run yet).
	FreshVerification string `json:"fresh_verification"`
}

// Commit records how a completed phase landed.
type Commit struct {
	Message string `json:"message"`
	// SHA is the commit on the run's line (empty in message-only mode, and
	// when the phase changed nothing).
	SHA           string   `json:"sha,omitempty"`
	FilesCreated  []string `json:"files_created,omitempty"`
	FilesModified []string `json:"files_modified,omitempty"`
	FilesDeleted  []string `json:"files_deleted,omitempty"`
}

// HasChanges reports whether the commit records changed files: a phase that
// changed nothing completes without one ("no changes to commit"). Nil-safe.
func (c *Commit) HasChanges() bool {
	return c != nil && len(c.FilesCreated)+len(c.FilesModified)+len(c.FilesDeleted) > 0
}

// Attempt outcomes.
const (
	OutcomeComplete    = "complete"
	OutcomeFailed      = "failed"
	OutcomeInterrupted = "interrupted"
	OutcomeRunning     = "running"
)

// Attempt is one attempt at a phase.
type Attempt struct {
	Number          int                `json:"number"`
	Agent           string             `json:"agent"`
	Started         time.Time          `json:"started"`
	Completed       *time.Time         `json:"completed,omitempty"`
	DurationSeconds float64            `json:"duration_seconds"`
	Outcome         string             `json:"outcome"`
	LogPath         string             `json:"log_path"`
	DiffPath        string             `json:"diff_path,omitempty"`
	Error           *failreport.Report `json:"error,omitempty"`
	// Usage is what the attempt cost at the provider, if the agent said.
	Usage *Usage `json:"usage,omitempty"`
	// Session is the agent CLI's session or thread id, which a retry after
	// an exhausted context continues.
	Session string `json:"session,omitempty"`
	// Worker names the machine that made the attempt (--executor
	// temporal: the worker's --name, sanitized), the last one when the
	// attempt was made again on another; empty for a local attempt.
	Worker string `json:"worker,omitempty"`
}
