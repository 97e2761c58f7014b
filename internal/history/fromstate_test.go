package history

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

var t0 = time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)

// at is t0 plus m minutes.
func at(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }

func attempt(n int, agent string, start, end int, outcome string, typ failreport.Type) state.Attempt {
	done := at(end)
	a := state.Attempt{Number: n, Agent: agent, Started: at(start), Completed: &done,
		DurationSeconds: float64(end-start) * 60, Outcome: outcome}
	if typ != "" {
		a.Error = &failreport.Report{Type: typ, Message: "gate failed\nsecond line", Retryable: typ.Retryable()}
	}
	return a
}

func TestAttemptRecord(t *testing.T) {
	t.Parallel()
	run := state.Run{Started: at(0), PlanPath: "plan.md", PlanTitle: "Todo"}
	tests := []struct {
		name     string
		session  int // minutes after t0
		attempts []state.Attempt
		want     func(r *Record)
	}{
		{"a first attempt that completes", 0, []state.Attempt{attempt(1, "claude", 1, 3, "complete", "")},
			func(r *Record) {}},
		{"a first attempt that fails", 0, []state.Attempt{attempt(1, "claude", 1, 3, "failed", failreport.TestFailure)},
			func(r *Record) {
				r.FailureType, r.FailureMessage, r.Retryable = "test_failure", "gate failed", true
			}},
		{"the retry completes on the same agent", 0, []state.Attempt{
			attempt(1, "claude", 1, 3, "failed", failreport.TestFailure),
			attempt(2, "claude", 4, 6, "complete", "")},
			func(r *Record) {
				r.Attempt, r.Retry, r.RecoveredBy, r.RecoverySeconds = 2, true, RecoveredByRetry, 180
			}},
		{"the retry on another agent fails", 0, []state.Attempt{
			attempt(1, "claude", 1, 3, "failed", failreport.TestFailure),
			attempt(2, "codex", 4, 6, "failed", failreport.LintError)},
			func(r *Record) {
				r.Attempt, r.Agent, r.Retry, r.Reassigned = 2, "codex", true, true
				r.FailureType, r.FailureMessage, r.Retryable = "lint_error", "gate failed", true
			}},
		{"a resume after a halt completes: a person recovered it", 30, []state.Attempt{
			attempt(1, "claude", 1, 3, "failed", failreport.TestFailure),
			attempt(2, "claude", 4, 6, "failed", failreport.TestFailure),
			attempt(1, "claude", 31, 40, "complete", "")},
			func(r *Record) {
				r.RecoveredBy, r.RecoverySeconds = RecoveredByResume, 37*60
			}},
		{"a resume after an interrupt with no failure is no recovery", 30, []state.Attempt{
			attempt(1, "claude", 1, 3, "interrupted", ""),
			attempt(1, "claude", 31, 40, "complete", "")},
			func(r *Record) {}},
		{"an attempt on a worker names it", 0, []state.Attempt{func() state.Attempt {
			a := attempt(1, "claude", 1, 3, "complete", "")
			a.Worker = "build-7:4242"
			return a
		}()},
			func(r *Record) { r.Worker = "build-7:4242" }},
		{"a rate-limit repeat that completes recovers by retry", 0, []state.Attempt{
			attempt(1, "claude", 1, 2, "failed", failreport.RateLimited),
			attempt(1, "claude", 3, 5, "complete", "")},
			func(r *Record) { r.RecoveredBy, r.RecoverySeconds = RecoveredByRetry, 180 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := state.Phase{PhaseID: "2b", DisplayID: "2B", PhaseName: "Format", Attempts: tt.attempts}
			last := tt.attempts[len(tt.attempts)-1]
			want := Record{V: Version, Kind: KindAttempt, Time: *last.Completed, RunID: IDTime(at(0)),
				Session: IDTime(at(tt.session)), PlanPath: "plan.md", PlanTitle: "Todo", PhaseID: "2b",
				DisplayID: "2B", PhaseName: "Format", Attempt: 1, Agent: "claude", Outcome: last.Outcome,
				Duration: last.DurationSeconds}
			tt.want(&want)
			require.Equal(t, want, AttemptRecord(run, p, at(tt.session)))
		})
	}
}

func TestAttemptRecordCopiesUsageAndCleansTheMessage(t *testing.T) {
	t.Parallel()
	a := attempt(1, "claude", 1, 2, "failed", failreport.AgentError)
	a.Error.Message = "\x1b[31mboom\x1b[0m\tat x"
	a.Usage = &state.Usage{Model: "opus", InputTokens: 10, OutputTokens: 2, CostUSD: 0.5}
	r := AttemptRecord(state.Run{Started: t0}, state.Phase{PhaseID: "1", Attempts: []state.Attempt{a}}, t0)
	require.Equal(t, "boom    at x", r.FailureMessage)
	require.Equal(t, "opus", r.Model)
	require.Equal(t, int64(12), r.Tokens())
	require.InDelta(t, 0.5, r.CostUSD(), 1e-9)
	a.Usage.CostUSD = 9
	require.InDelta(t, 0.5, r.CostUSD(), 1e-9, "the record holds its own copy")
}

func TestRunEndRecordNamesTheFailedPhasesOfAHalt(t *testing.T) {
	t.Parallel()
	fin := at(9)
	run := state.Run{Started: t0, Status: state.RunHalted, HaltReason: "Phase 2B failed after retry", Finished: &fin}
	phases := []state.Phase{{PhaseID: "1", Status: state.PhaseComplete}, {PhaseID: "2b", DisplayID: "2B", Status: state.PhaseFailed},
		{PhaseID: "3", Status: state.PhaseBlocked}}
	r := RunEndRecord(run, phases, at(5))
	require.Equal(t, KindRunEnd, r.Kind)
	require.Equal(t, fin, r.Time)
	require.Equal(t, "halted", r.Status)
	require.Equal(t, []phaseid.Display{"2B"}, r.FailedPhases)
	run.Status = state.RunInterrupted
	require.Empty(t, RunEndRecord(run, phases, at(5)).FailedPhases, "an interrupt needs no person")
}
