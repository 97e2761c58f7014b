package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/state"

	"github.com/autobuild-sh/autobuild/internal/sanitize"
)

// noteRecordedAgents says which commands a run without --agent is about to
// run because .autobuild/run.json records them: that file can be edited,
// and what it names runs with your rights, so it never runs unannounced.
func noteRecordedAgents(s Streams, o *runOptions) {
	if len(o.agentsFromRun) == 0 {
		return
	}
	fmt.Fprintf(s.Err, "autobuild: running the agents recorded in .autobuild/run.json: %s (pass --agent to choose others)\n",
		sanitize.Line(strings.Join(o.agentsFromRun, ", ")))
}

// recordedPlan is the plan of the run in .autobuild/ (of the repository
// around the current directory), for `autobuild --resume` without a plan:
// what a halt for a provider's limit tells you to run. Flags without a plan
// and without --resume are a usage error, not the help: a script must not
// read them as a run that succeeded.
func recordedPlan(s Streams, resume bool) (string, error) {
	if !resume {
		return "", usageErr("no plan given: autobuild PLAN.md [flags] (only --resume finds the plan of the run in .autobuild/ by itself; see autobuild --help)")
	}
	root, err := findRoot(".")
	if err != nil {
		return "", usageErr("no plan given, and the current directory cannot be read: %v", err)
	}
	run, err := state.Open(root).LoadRun()
	if errors.Is(err, state.ErrNoRun) {
		return "", usageErr("no plan given, and no run in %s to resume: autobuild PLAN.md --resume", filepath.Join(root, ".autobuild"))
	}
	if err != nil {
		return "", &exitcode.Error{Code: exitcode.Refused, Err: err}
	}
	if run.PlanPath == "" {
		return "", usageErr("no plan given, and the run in %s does not record its plan (an older autobuild's): autobuild PLAN.md --resume", filepath.Join(root, ".autobuild"))
	}
	path := state.PlanFile(root, run.PlanPath)
	fmt.Fprintf(s.Err, "autobuild: resuming the run of %s recorded in .autobuild/run.json\n", sanitize.Line(path))
	return path, nil
}
