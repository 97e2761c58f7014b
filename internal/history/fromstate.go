package history

import (
	"time"

	"github.com/autobuild-sh/autobuild/internal/clip"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/textwrap"
)

// maxMessage bounds a failure message in the history (first line only).
const maxMessage = 300

// AttemptRecord describes the last attempt of p, which has just ended, in a
// session of run that started at session. Whether it was a retry, a
// reassignment or a recovery is read from the phase's earlier attempts,
// which the state keeps across resumes (not across --fresh).
func AttemptRecord(run state.Run, p state.Phase, session time.Time) Record {
	n := len(p.Attempts)
	a := p.Attempts[n-1]
	rec := base(run, session)
	rec.Kind = KindAttempt
	rec.Time = a.Started.Add(time.Duration(a.DurationSeconds * float64(time.Second)))
	if a.Completed != nil {
		rec.Time = *a.Completed
	}
	rec.PhaseID, rec.DisplayID, rec.PhaseName = p.PhaseID, p.DisplayID, p.PhaseName
	rec.Attempt, rec.Agent, rec.Outcome, rec.Duration = a.Number, a.Agent, a.Outcome, a.DurationSeconds
	rec.Worker = a.Worker
	if a.Usage != nil {
		u := *a.Usage
		rec.Usage, rec.Model = &u, u.Model
	}
	if e := a.Error; e != nil && a.Outcome == state.OutcomeFailed {
		rec.FailureType, rec.Retryable, rec.Circular = string(e.Type), e.Retryable, e.Circular
		rec.FailureMessage = message(e.Message)
	}
	if k := len(p.Notes); k > 0 && !p.Notes[k-1].Time.Before(a.Started) {
		rec.Note, rec.NoteKind = message(p.Notes[k-1].Text), p.Notes[k-1].Kind
	}
	if n > 1 {
		prev := p.Attempts[n-2]
		rec.Retry = a.Number > 1 && inSession(prev, session)
		rec.Reassigned = rec.Retry && prev.Agent != a.Agent
	}
	if a.Outcome == state.OutcomeComplete {
		rec.RecoveredBy, rec.RecoverySeconds = recovery(p.Attempts, session)
	}
	return rec
}

// recovery says how a phase whose last attempt completed got there: "" when
// no attempt failed since its previous completion, else by the retry (every
// failure since was in this session) or by a person's resume, and the time
// from the first of those failures to the completion.
func recovery(attempts []state.Attempt, session time.Time) (string, float64) {
	last := attempts[len(attempts)-1]
	var first *state.Attempt
	allInSession := true
	for i := len(attempts) - 2; i >= 0 && attempts[i].Outcome != state.OutcomeComplete; i-- {
		if attempts[i].Outcome != state.OutcomeFailed {
			continue
		}
		first = &attempts[i]
		if !inSession(attempts[i], session) {
			allInSession = false
		}
	}
	if first == nil || last.Completed == nil {
		return "", 0
	}
	failedAt := first.Started
	if first.Completed != nil {
		failedAt = *first.Completed
	}
	by := RecoveredByResume
	if allInSession {
		by = RecoveredByRetry
	}
	return by, max(0, last.Completed.Sub(failedAt).Seconds())
}

// RunEndRecord describes the end of a session of run (its status is final).
func RunEndRecord(run state.Run, phases []state.Phase, session time.Time) Record {
	rec := base(run, session)
	rec.Kind = KindRunEnd
	rec.Time = run.Updated
	if run.Finished != nil {
		rec.Time = *run.Finished
	}
	rec.Status, rec.Reason = string(run.Status), message(run.HaltReason)
	if run.Status == state.RunHalted {
		for _, p := range phases {
			if p.Status == state.PhaseFailed {
				rec.FailedPhases = append(rec.FailedPhases, orID(p))
			}
		}
	}
	return rec
}

func base(run state.Run, session time.Time) Record {
	return Record{V: Version, RunID: IDTime(run.Started), Session: IDTime(session),
		PlanPath: run.PlanPath, PlanTitle: run.PlanTitle}
}

// inSession reports whether an attempt started in the session that began at
// session, rather than in an earlier invocation.
func inSession(a state.Attempt, session time.Time) bool { return !a.Started.Before(session) }

// message is the first line of a failure message, cleaned of what a
// terminal would interpret, and bounded.
func message(s string) string {
	s = textwrap.CleanLine(clip.FirstLine(s))
	if r := []rune(s); len(r) > maxMessage {
		s = string(r[:maxMessage-1]) + "…"
	}
	return s
}

func orID(p state.Phase) phaseid.Display { return p.DisplayID.Or(p.PhaseID) }
