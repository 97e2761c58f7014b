package engine

import (
	"fmt"
	"io"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// continuation sets how an attempt after a context_exhausted one goes on:
// in the same session of the same agent when its CLI can resume one (claude
// --resume, codex exec resume, gemini --resume), with a short prompt to
// continue; otherwise in a fresh session whose prompt summarizes the work
// done instead of repeating everything (Compact).
func (s *scheduler) continuation(id phaseid.ID, req *attemptRequest) {
	req.Session, req.Compact = "", false
	ps := s.rec.Get(id)
	var last *state.Attempt
	for i := len(ps.Attempts) - 1; i >= 0; i-- {
		if ps.Attempts[i].Outcome == state.OutcomeFailed {
			last = &ps.Attempts[i]
			break
		}
	}
	if last == nil || last.Error == nil || last.Error.Type != failure.ContextExhausted {
		return
	}
	if last.Session != "" {
		for _, a := range s.agents {
			if a.Name == last.Agent && agent.CanResume(a) {
				req.Agent, req.Session = a, last.Session
				return
			}
		}
	}
	req.Compact = true
}

// promptFor is the attempt's prompt and command line: the agent's own,
// with the full prompt; after an exhausted context, the CLI's resume
// command with a short prompt to continue (when its session and worktree
// are there to continue), or a compact prompt for a fresh session.
func (r *phaseRunner) promptFor(p *plan.Phase, req attemptRequest, continues bool, log io.Writer) (string, []string) {
	in := agent.PromptInput{
		PlanPath: r.cfg.Plan.Path, PlanTitle: r.cfg.Plan.Title, Phase: p, Gates: gatePlan(r.gates),
		Siblings: req.Siblings, Landed: req.Landed, Eager: r.eager, Attempt: req.Number, MaxAttempts: MaxAttempts, Previous: req.Previous, Continues: continues,
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
