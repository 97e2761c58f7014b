// Package failure names the ways a phase can fail (docs/failures.md), classifies an
// attempt's evidence into one of them, and writes the failure report that
// goes into the phase file, the retry prompt, the TUI and the halt summary.
// The data (Type, Report) lives in the leaf package failreport; the names
// here are aliases of it.
package failure

import "github.com/autobuild-sh/autobuild/internal/failreport"

// Type is a failure type of docs/failures.md.
type Type = failreport.Type

// Report is the structured account of one failed attempt.
type Report = failreport.Report

// The failure types of docs/failures.md.
const (
	TestFailure          = failreport.TestFailure
	LintError            = failreport.LintError
	TypecheckError       = failreport.TypecheckError
	FormatError          = failreport.FormatError
	TaskIncomplete       = failreport.TaskIncomplete
	VerificationMismatch = failreport.VerificationMismatch
	Timeout              = failreport.Timeout
	ParseError           = failreport.ParseError
	RateLimited          = failreport.RateLimited
	ContextExhausted     = failreport.ContextExhausted
	AgentError           = failreport.AgentError
	DependencyMissing    = failreport.DependencyMissing
	CircularDependency   = failreport.CircularDependency
	FileConflict         = failreport.FileConflict
	PlanInvalid          = failreport.PlanInvalid
	AgentSetup           = failreport.AgentSetup
	BranchChanged        = failreport.BranchChanged
	OutsideWorktree      = failreport.OutsideWorktree
	NestedRepository     = failreport.NestedRepository
	LockLost             = failreport.LockLost
	DiskFull             = failreport.DiskFull
	EnvironmentSetup     = failreport.EnvironmentSetup
	BudgetExceeded       = failreport.BudgetExceeded
	ReviewRejected       = failreport.ReviewRejected
)
