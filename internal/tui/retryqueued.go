package tui

import (
	"time"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// A failed attempt whose retry waits (for its batch's siblings, for a
// free slot under --max-parallel) is announced only when the retry starts
// (PhaseRetrying). Until then its row says "retry queued" (↻), not a red
// "failed" that would turn into running: the UI applies the scheduler's
// rule (failreport.Report.Retried) to the failure it was told of. Once the run
// stops (a failure not retried, a budget reached, Ctrl-C, the run's end)
// no retry starts, and a queued one shows as failed again.

// defaultMaxAttempts is a phase's attempts when its row was not told.
const defaultMaxAttempts = 2

// willRetry reports whether the scheduler retries a phase whose attempt
// failed with f, by the scheduler's own rule (failreport's Retried). A
// usage limit is not shown so: its own events follow at once (another
// agent, a wait, or the halt).
func willRetry(f *failreport.Report, attempt, max int) bool {
	if max == 0 {
		max = defaultMaxAttempts
	}
	return f != nil && f.Type != failreport.RateLimited && f.Retried(attempt, max)
}

// haltsRun reports whether the failure f of an attempt stops the run: no
// retry (and no new phase) starts after it.
func haltsRun(f *failreport.Report, attempt, max int) bool {
	return f != nil && f.Type != failreport.RateLimited && !willRetry(f, attempt, max)
}

// retryQueued reports whether the row is a failed attempt whose retry has
// not started nor been announced (PhaseRetrying and PhaseWaiting say
// why in the note).
func (r *phaseRow) retryQueued() bool {
	return r.status == stRetrying && r.note == "" && r.until.IsZero()
}

// stopping reports whether the run starts no retry any more.
func (m *Model) stopping() bool {
	st := m.run.status
	return m.run.stopping || m.life.halting() || (st != "" && st != state.RunRunning)
}

// settleRetries shows each failed row whose retry is still to come as
// queued, and each queued one as failed once the run is stopping.
func (m *Model) settleRetries() {
	stopping := m.stopping()
	for _, r := range m.phases.rows {
		switch {
		case r.status == stFailed && !stopping && willRetry(r.failure, r.attempt, r.maxAttempts):
			r.status, r.note, r.until = stRetrying, "", time.Time{}
		case r.retryQueued() && stopping:
			r.status = stFailed
		}
	}
}

// haltedInSession reports whether a phase failed in the run's current
// session with a failure that stops the run (watch mode, which reads the
// phase files and gets no events). A phase failed in an earlier session
// (the resume runs it again) stops nothing.
func haltedInSession(s *state.Snapshot) bool {
	since := s.Run.Started
	if s.Run.SessionStarted != nil {
		since = *s.Run.SessionStarted
	}
	for _, p := range s.Phases {
		n := len(p.Attempts)
		if p.Status != state.PhaseFailed || n == 0 || p.Attempts[n-1].Started.Before(since) {
			continue
		}
		if haltsRun(p.Error, p.Attempt, p.MaxAttempts) {
			return true
		}
	}
	return false
}
