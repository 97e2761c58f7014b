package schedule

import (
	"github.com/autobuild-sh/autobuild/internal/agent/adapters"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// continuation sets how an attempt after a context_exhausted one goes on:
// in the same session of the same agent when its CLI can resume one
// (adapters.CanResume: claude --resume, codex exec resume, an ACP agent's
// session/load), with a short prompt to continue; otherwise (gemini, whose
// --resume cannot name the session, aider, a plain command) in a fresh
// session whose prompt summarizes the work done instead of repeating
// everything (Compact).
func (s *Scheduler) continuation(id phaseid.ID, req *AttemptRequest) {
	req.Session, req.Compact = "", false
	ps := s.Rec.Get(id)
	var last *state.Attempt
	for i := len(ps.Attempts) - 1; i >= 0; i-- {
		if ps.Attempts[i].Outcome == state.OutcomeFailed {
			last = &ps.Attempts[i]
			break
		}
	}
	if last == nil || last.Error == nil || last.Error.Type != failreport.ContextExhausted {
		return
	}
	if last.Session != "" {
		for _, a := range s.Agents {
			if a.Name == last.Agent && adapters.CanResume(a) {
				req.Agent, req.Session = a, last.Session
				return
			}
		}
	}
	req.Compact = true
}
