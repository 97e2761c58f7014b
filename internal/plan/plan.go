package plan

import (
	"fmt"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// PlanStatus is the status a phase carries in the plan itself (the user's
// record), as opposed to the run state autobuild keeps in .autobuild/.
type PlanStatus string

const (
	// StatusOpen means the plan does not mark the phase as done: it runs.
	StatusOpen PlanStatus = ""
	// StatusComplete (✅, "Complete", "Done") means the phase is not run and
	// counts as complete for its dependents.
	StatusComplete PlanStatus = "complete"
	// StatusSkipped (⏭️, "Skipped", "Waived", "Deferred", "N/A") is treated
	// like StatusComplete: not run, complete for its dependents.
	StatusSkipped PlanStatus = "skipped"
)

// Plan is a parsed plan. Phases are in plan order (the order of the overview
// table, then sections that have no table row).
type Plan struct {
	// Path is the file the plan was read from, as given by the user.
	Path string
	// Title is the text of the first level-1 heading, or the file name.
	Title string
	// Phases in plan order.
	Phases []*Phase
	// Gates from the plan's "## Quality Gates" section, in order.
	Gates []Gate
	// HasParallelColumn is true when the overview table has a "Parallel With"
	// column (or a section declares "Parallel With"/"Can Run With" metadata);
	// without it every phase of a batch may run concurrently.
	HasParallelColumn bool
	// Warnings are problems that do not stop a run (a row without a section,
	// a section without a row).
	Warnings []Problem

	// src is the plan's source as read, and linked the linked phase files,
	// kept for Hash.
	src    []byte
	linked [][]byte
	// idx answers Phase and Dependents (index.go).
	idx indexHolder
}

// Phase is one phase of the plan.
type Phase struct {
	// ID is the normalized id ("2a"); it keys everything.
	ID phaseid.ID
	// DisplayID is the id as the user wrote it, without a "Phase" prefix ("2A").
	DisplayID phaseid.Display
	// Name is the phase's name from the table's Name column or its heading.
	Name string
	// DependsOn holds normalized ids, in the order written, ranges expanded.
	DependsOn []phaseid.ID
	// ParallelWith holds normalized ids from the "Parallel With" column or the
	// section's "Can Run With" metadata.
	ParallelWith []phaseid.ID
	// ParallelAny is set by a Parallel cell saying "Yes" without naming a
	// phase: the phase may run alongside the other such phases of its batch.
	ParallelAny bool
	// Estimate is the table's Estimate cell or the heading's "(est N)", verbatim.
	Estimate string
	// Status is the plan's own status for the phase.
	Status PlanStatus
	// Line is the 1-based line of the phase's table row (0 when it has none).
	Line int
	// SectionLine is the 1-based line of the phase's heading (0 when none).
	SectionLine int
	// Body is the phase's section verbatim, heading included: it becomes the
	// agent's prompt.
	Body string
	// BodyFile is the local markdown file the table row links, as written
	// (relative to the plan); its content is part of Body.
	BodyFile string
	// Tasks counts the "- [ ]" and "- [x]" items in the section; TasksDone
	// counts the checked ones.
	Tasks     int
	TasksDone int
	// Files lists the paths named by "##### File: path" entries in the section.
	Files []string
}

// Done reports whether the plan marks the phase complete or skipped, so it
// is not run and counts as complete for its dependents.
func (p *Phase) Done() bool { return p.Status == StatusComplete || p.Status == StatusSkipped }

// Label is how the phase is named in messages: "Phase 2A: Backend API".
func (p *Phase) Label() string {
	if p.Name == "" {
		return "Phase " + string(p.DisplayID)
	}
	return "Phase " + string(p.DisplayID) + ": " + p.Name
}

// Gate is one quality gate command.
type Gate struct {
	// Kind is one of build, lint, format, typecheck, test.
	Kind string
	// Command is a shell command line, run with sh -c in the phase's worktree.
	Command string
	// Line is where the plan declares it (0 for gates that did not come from
	// the plan).
	Line int
}

// GateKinds lists the gate kinds in the order gates run when detected.
var GateKinds = []string{"build", "typecheck", "lint", "format", "test"}

// Problem codes, used in Problem.Code; the failure types of docs/failures.md where
// one applies.
const (
	CodePlanInvalid        = "plan_invalid"
	CodeCircularDependency = "circular_dependency"
)

// Problem is one thing wrong with a plan, located by file and line.
type Problem struct {
	File    string
	Line    int
	Code    string // CodePlanInvalid or CodeCircularDependency
	Message string
	Warning bool
}

// String formats the problem as "plan.md:12: unknown dependency "7" in phase 3"
// (warnings say so: "plan.md:40: warning: ...").
func (p Problem) String() string {
	prefix := p.File
	if p.Line > 0 {
		prefix = fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	if p.Warning {
		return prefix + ": warning: " + p.Message
	}
	return prefix + ": " + p.Message
}

// Batch is one topological layer of the plan. Groups run one after another
// in plan order; the phases of one group run concurrently (docs/running.md: phases of
// a batch run together when the plan has no Parallel With column or when they
// name each other there).
type Batch struct {
	// Index is 1-based.
	Index  int
	Phases []*Phase
	Groups [][]*Phase
}
