package plan

import "strings"

// ValidationError lists every problem found in a plan (warnings are not
// among them: they are in Plan.Warnings).
type ValidationError struct {
	Problems []Problem
}

// Error lists the problems, one per line.
func (e *ValidationError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Code is CodeCircularDependency when any problem is a cycle, else
// CodePlanInvalid: the failure type and exit status of the whole error.
func (e *ValidationError) Code() string {
	for _, p := range e.Problems {
		if p.Code == CodeCircularDependency {
			return CodeCircularDependency
		}
	}
	return CodePlanInvalid
}
