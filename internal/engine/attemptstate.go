package engine

import (
	"time"

	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// The recorder's changes of a phase over one attempt, in the order they
// happen. Each writes the phase file (recorder.phase).

// attemptStarted marks the phase running with a new attempt.
func (r *recorder) attemptStarted(id phaseid.ID, number int, agentName string, started time.Time, worktree, logPath string) {
	r.phase(id, func(ps *state.Phase) {
		ps.Status = state.PhaseRunning
		ps.Attempt = number
		ps.MaxAttempts = MaxAttempts
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

// agentEnded records what the agent spent and claimed, before the gates.
func (r *recorder) agentEnded(id phaseid.ID, ev executor.Evidence) {
	if ev.Interrupted && ev.Usage == nil && ev.Session == "" {
		return
	}
	r.phase(id, func(ps *state.Phase) {
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

// gatesChecked records the gates' results: the engine's own verification.
func (r *recorder) gatesChecked(id phaseid.ID, results map[string]state.GateResult, passed bool) {
	r.phase(id, func(ps *state.Phase) {
		ps.QualityGates = results
		ps.Verification.FreshVerification = state.GatePassed
		if !passed {
			ps.Verification.FreshVerification = state.GateFailed
		}
	})
}

// gatesNotRun records gate results when the gates themselves did not run
// (a declared gate's tool is missing).
func (r *recorder) gatesNotRun(id phaseid.ID, results map[string]state.GateResult) {
	r.phase(id, func(ps *state.Phase) { ps.QualityGates = results })
}

// attemptFailed ends the attempt as failed with its report and diff.
func (r *recorder) attemptFailed(id phaseid.ID, rep *failure.Report, started, now time.Time, diffPath string) {
	r.phase(id, func(ps *state.Phase) {
		ps.Status = state.PhaseFailed
		ps.Error = rep
		endAttempt(ps, state.OutcomeFailed, started, now)
		if n := len(ps.Attempts); n > 0 {
			ps.Attempts[n-1].Error = rep
			ps.Attempts[n-1].DiffPath = diffPath
		}
	})
}

// attemptInterrupted ends the attempt stopped by Ctrl-C: the phase is
// pending again, and resume re-runs it without using up the retry.
func (r *recorder) attemptInterrupted(id phaseid.ID, started, now time.Time) {
	r.phase(id, func(ps *state.Phase) {
		ps.Status = state.PhasePending
		endAttempt(ps, state.OutcomeInterrupted, started, now)
	})
}

// attemptCompleted ends the attempt with the phase complete and landed.
func (r *recorder) attemptCompleted(id phaseid.ID, commit *state.Commit, started, now time.Time) {
	r.phase(id, func(ps *state.Phase) {
		ps.Status = state.PhaseComplete
		ps.Commit = commit
		ps.Error = nil
		ps.Worktree = ""
		if ps.Tasks.Total > 0 && ps.Tasks.Completed == 0 {
			ps.Tasks.Completed = ps.Tasks.Total
		}
		endAttempt(ps, state.OutcomeComplete, started, now)
	})
}

// endAttempt stamps the phase's and its latest attempt's end.
func endAttempt(ps *state.Phase, outcome string, started, now time.Time) {
	ps.Timestamps.Completed = &now
	ps.Timestamps.DurationSeconds = now.Sub(started).Seconds()
	if n := len(ps.Attempts); n > 0 {
		a := &ps.Attempts[n-1]
		a.Outcome, a.Completed = outcome, &now
		a.DurationSeconds = now.Sub(started).Seconds()
	}
}
