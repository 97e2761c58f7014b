// Package failreport holds the data of a failure: its type (docs/failures.md)
// and the report kept in the phase file. It is a leaf, so that the state
// files and the event stream carry failures without importing the
// classifier (package failure). Every package, the classifier too, names
// these types here.
package failreport

import "time"

// Type is a failure type of docs/failures.md.
type Type string

// The failure types of docs/failures.md.
const (
	TestFailure          Type = "test_failure"
	LintError            Type = "lint_error"
	TypecheckError       Type = "typecheck_error"
	FormatError          Type = "format_error"
	TaskIncomplete       Type = "task_incomplete"
	VerificationMismatch Type = "verification_mismatch"
	Timeout              Type = "timeout"
	ParseError           Type = "parse_error"
	RateLimited          Type = "rate_limited"
	ContextExhausted     Type = "context_exhausted"
	AgentError           Type = "agent_error"
	DependencyMissing    Type = "dependency_missing"
	CircularDependency   Type = "circular_dependency"
	FileConflict         Type = "file_conflict"
	PlanInvalid          Type = "plan_invalid"
	// AgentSetup means the agent CLI itself cannot work here: it is not
	// logged in or its key is refused (401/403), it refuses to run as root,
	// the folder is not trusted, or its own installation is broken. Running
	// it again changes nothing, so it halts at once without using the retry;
	// the report names the fix.
	AgentSetup Type = "agent_setup"
)

// Retryable reports whether a failure of this type gets the single retry.
func (t Type) Retryable() bool {
	switch t {
	case DependencyMissing, CircularDependency, FileConflict, PlanInvalid, AgentSetup, BranchChanged, LockLost, DiskFull, EnvironmentSetup:
		return false
	case RedBase:
		return false
	case BudgetExceeded:
		return false
	}
	return true
}

// ConsumesRetry reports whether a failure of this type uses up the phase's
// one retry. Rate limiting does not: the attempt is repeated after a backoff;
// nor does a worktree's failed setup, where the agent never ran.
func (t Type) ConsumesRetry() bool { return t != RateLimited && t != EnvironmentSetup }

// Retried reports whether the one-retry rule gives a failure r of attempt
// number (of max) its retry: retryable, not the same fix tried again, and
// not the last attempt (docs/failures.md). The scheduler decides by it, and
// the UI shows a failure it applies to as a retry to come.
func (r *Report) Retried(number, max int) bool {
	return r != nil && r.Retryable && !r.Circular && number < max
}

// Report is the structured account of one failed attempt (docs/failures.md). It is
// stored in the phase file, put in the retry prompt and shown to the user.
type Report struct {
	Type    Type   `json:"type"`
	Message string `json:"message"`
	// Details is a longer explanation (a conflict's line ranges, the failing
	// tests), shown under the message.
	Details         string  `json:"details,omitempty"`
	DurationSeconds float64 `json:"duration_seconds"`
	Retryable       bool    `json:"retryable"`
	Attempt         int     `json:"attempt"`
	// WorkCompleted lists what the attempt got done before it failed
	// ("3/5 tasks", "created 2 files").
	WorkCompleted []string `json:"work_completed,omitempty"`
	FilesChanged  []string `json:"files_changed,omitempty"`
	BlockedOn     string   `json:"blocked_on,omitempty"`
	// Gate is the kind of the gate that failed (test, lint, ...), if any.
	Gate        string `json:"gate,omitempty"`
	GateCommand string `json:"gate_command,omitempty"`
	// GateOutput is an excerpt of the failing gate's output (its tail).
	GateOutput   string   `json:"gate_output,omitempty"`
	FailingTests []string `json:"failing_tests,omitempty"`
	// MissingTool names the command that was not found (dependency_missing).
	MissingTool string `json:"missing_tool,omitempty"`
	// Circular is set when the same fix was tried again (docs/failures.md): the run
	// halts instead of retrying.
	Circular         bool     `json:"circular,omitempty"`
	SuggestedActions []string `json:"suggested_actions,omitempty"`
	// Fix is the one thing that repairs an agent_setup failure, if known:
	// the reinstall command of a broken agent CLI, or the fix a preset
	// CLI's setup problem needs ("set IS_SANDBOX=1 …", "codex login"); for
	// a dependency_missing package, how to install it.
	Fix string `json:"fix,omitempty"`
	// UsageLimit marks a rate_limited failure that is a subscription's
	// usage limit; ResetsAt is when it lifts, and RetryAfterSeconds a rate
	// limit's "try again in", when the provider said (see ReadLimit).
	UsageLimit        bool       `json:"usage_limit,omitempty"`
	ResetsAt          *time.Time `json:"resets_at,omitempty"`
	RetryAfterSeconds float64    `json:"retry_after_seconds,omitempty"`
}
