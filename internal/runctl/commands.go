package runctl

import (
	"github.com/autobuild-sh/autobuild/internal/shell"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// PlanPlaceholder stands for the run's plan in a command while the plan is
// not known (a watch before the run's run.json has been read, or a run too
// old to record it).
const PlanPlaceholder = "PLAN.md"

// Commands are the command lines a front end offers to go on with a run:
// resume it, or start it over. Front ends print and copy them; they never
// assemble one.
type Commands struct {
	// Resume and Fresh are the command lines of the run this process
	// drives: what the user typed, with --resume or --fresh (cli builds
	// them from its arguments). "" offers the plain command.
	Resume, Fresh string
	// Launch, set for a run known only from its state files (watch), is
	// autobuild run with args (quoted words) where the run is. The
	// commands then name the plan and the commit mode run.json records.
	Launch func(args ...string) string
}

// Followed reports whether the commands are for a run followed from its
// files (Launch), not one this process drives.
func (c Commands) Followed() bool { return c.Launch != nil }

// ResumeFor is the command that resumes the run of plan ("" while
// unknown). No --agent is needed: a resume runs the agents run.json
// records.
func (c Commands) ResumeFor(plan string) string {
	switch {
	case c.Launch != nil:
		return c.Launch(planWord(plan), "--resume")
	case c.Resume != "":
		return c.Resume
	}
	return "autobuild " + planWord(plan) + " --resume"
}

// FreshFor is the command that starts the run of plan over. A run followed
// from its files, or offered the plain command, names its commit mode
// (when known): a fresh run without --commit would not know it.
func (c Commands) FreshFor(plan string, mode state.CommitMode) string {
	switch {
	case c.Launch != nil:
		args := []string{planWord(plan), "--fresh"}
		if mode != "" {
			args = append(args, commitFlag(mode))
		}
		return c.Launch(args...)
	case c.Fresh != "":
		return c.Fresh
	}
	line := "autobuild " + planWord(plan) + " --fresh"
	if mode != "" {
		line += " " + commitFlag(mode)
	}
	return line
}

func commitFlag(mode state.CommitMode) string { return "--commit=" + string(mode) }

// planWord is plan quoted for a shell, or the placeholder while unknown.
func planWord(plan string) string {
	if plan == "" {
		return PlanPlaceholder
	}
	return shell.Quote(plan)
}
