package record

import (
	"time"

	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// The recorder's changes of a phase over one attempt, in the order they
// happen. Each writes the phase file (recorder.phase).

// AttemptStarted marks the phase running with a new attempt.
func (r *Recorder) AttemptStarted(id phaseid.ID, number, maxAttempts int, agentName string, started time.Time, worktree, logPath string) {
	r.Phase(id, func(ps *state.Phase) {
		ps.Status = state.PhaseRunning
		ps.Attempt = number
		ps.MaxAttempts = maxAttempts
		ps.Agent = agentName
		ps.Timestamps = state.Timestamps{Started: &started}
		ps.Error = nil
		ps.BlockedBy = nil
		ps.QualityGates = nil
		ps.Verification = state.Verification{}
		ps.Worktree = worktree
		ps.Attempts = append(ps.Attempts, state.Attempt{Number: number, Agent: agentName,
			Started: started, Outcome: state.OutcomeRunning, LogPath: logPath})
	})
}

// AgentEnded records what the agent spent and claimed, before the gates.
func (r *Recorder) AgentEnded(id phaseid.ID, ev executor.Result) {
	if ev.Interrupted && ev.Usage == nil && ev.Session == "" {
		return
	}
	r.Phase(id, func(ps *state.Phase) {
		if n := len(ps.Attempts); n > 0 {
			ps.Attempts[n-1].Usage = ev.Usage
			ps.Attempts[n-1].Session = ev.Session
		}
		if ev.Interrupted {
			return
		}
		ps.Verification.AgentClaimed = claimed(ev.Evidence)
		if ev.TasksTotal > 0 {
			ps.Tasks = state.Tasks{Total: ev.TasksTotal, Completed: ev.TasksCompleted}
		}
	})
}

// AttemptWorker records which worker makes the phase's running attempt
// (--executor temporal); a later call names the worker that took it over.
func (r *Recorder) AttemptWorker(id phaseid.ID, worker string) {
	r.PhaseIf(id, func(ps *state.Phase) bool {
		n := len(ps.Attempts)
		if n == 0 || ps.Attempts[n-1].Worker == worker {
			return false
		}
		ps.Attempts[n-1].Worker = worker
		return true
	})
}

// GatesChecked records the gates' results: the engine's own verification.
func (r *Recorder) GatesChecked(id phaseid.ID, results map[string]state.GateResult, passed bool) {
	r.Phase(id, func(ps *state.Phase) {
		ps.QualityGates = results
		ps.Verification.FreshVerification = state.GatePassed
		if !passed {
			ps.Verification.FreshVerification = state.GateFailed
		}
	})
}

// GatesNotRun records gate results when the gates themselves did not run
// (a declared gate's tool is missing).
func (r *Recorder) GatesNotRun(id phaseid.ID, results map[string]state.GateResult) {
	r.Phase(id, func(ps *state.Phase) { ps.QualityGates = results })
}

// AttemptFailed ends the attempt as failed with its report and diff.
func (r *Recorder) AttemptFailed(id phaseid.ID, rep *failreport.Report, started, now time.Time, diffPath string) {
	r.Phase(id, func(ps *state.Phase) {
		ps.Status = state.PhaseFailed
		ps.Error = rep
		EndAttempt(ps, state.OutcomeFailed, started, now)
		if n := len(ps.Attempts); n > 0 {
			ps.Attempts[n-1].Error = rep
			ps.Attempts[n-1].DiffPath = diffPath
		}
	})
}

// AttemptInterrupted ends the attempt stopped by Ctrl-C: the phase is
// pending again, and resume re-runs it without using up the retry.
func (r *Recorder) AttemptInterrupted(id phaseid.ID, started, now time.Time) {
	r.Phase(id, func(ps *state.Phase) {
		ps.Status = state.PhasePending
		EndAttempt(ps, state.OutcomeInterrupted, started, now)
	})
}

// AttemptCompleted ends the attempt with the phase complete and landed.
func (r *Recorder) AttemptCompleted(id phaseid.ID, commit *state.Commit, started, now time.Time) {
	r.Phase(id, func(ps *state.Phase) {
		ps.Status = state.PhaseComplete
		ps.Commit = commit
		ps.Error = nil
		ps.Worktree = ""
		if ps.Tasks.Total > 0 && ps.Tasks.Completed == 0 {
			ps.Tasks.Completed = ps.Tasks.Total
		}
		EndAttempt(ps, state.OutcomeComplete, started, now)
	})
}

// EndAttempt stamps the phase's and its latest attempt's end.
func EndAttempt(ps *state.Phase, outcome string, started, now time.Time) {
	ps.Timestamps.Completed = &now
	ps.Timestamps.DurationSeconds = now.Sub(started).Seconds()
	if n := len(ps.Attempts); n > 0 {
		a := &ps.Attempts[n-1]
		a.Outcome, a.Completed = outcome, &now
		a.DurationSeconds = now.Sub(started).Seconds()
	}
}

// claimed is the status the agent's result object claims, "" without one.
func claimed(ev failure.Evidence) string {
	if ev.ResultFound {
		return ev.ResultStatus
	}
	return ""
}
