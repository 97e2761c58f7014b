package engine

import (
	"fmt"
	"io"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/schedule"
)

// promptFor is the attempt's prompt and command line: the agent's own,
// with the full prompt; after an exhausted context, the CLI's resume
// command with a short prompt to continue (when its session and worktree
// are there to continue), or a compact prompt for a fresh session.
func (r *phaseRunner) promptFor(p *plan.Phase, req schedule.AttemptRequest, continues bool, log io.Writer) (string, []string) {
	in := agent.PromptInput{
		PlanPath: r.cfg.Plan.Path, PlanTitle: r.cfg.Plan.Title, Phase: p, Gates: gatePlan(r.gates),
		Siblings: req.Siblings, Landed: req.Landed, Eager: r.eager, Attempt: req.Number, MaxAttempts: schedule.MaxAttempts, Previous: req.Previous, Continues: continues,
		PreviousDiffPath: r.abs(r.previousDiff(p.ID)),
	}
	if req.Steer != "" {
		return r.steerPrompt(in, req, continues, log)
	}
	if req.Session != "" && continues {
		if args := agent.ResumeArgs(req.Agent, req.Session); args != nil {
			fmt.Fprintf(log, "# autobuild: the context ran out: continuing %s session %s\n", req.Agent.Name, req.Session)
			return agent.ContinuePrompt, args
		}
	}
	if req.Session != "" || req.Compact {
		fmt.Fprintf(log, "# autobuild: the context ran out: a fresh session gets a summary of the work done\n")
		return agent.BuildCompactPrompt(in), req.Agent.Args
	}
	return agent.BuildPrompt(in), req.Agent.Args
}
