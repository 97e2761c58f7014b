package schedule

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/state"
)

const singlePlan = "# One\n\n| Phase | Name | Depends On |\n|---|---|---|\n| 0 | Only | - |\n\n## Phase 0: Only\n"

func eventsOf(evs []event.Event, kind event.Kind) []event.Event {
	var out []event.Event
	for _, e := range evs {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// A usage limit that resets in 5 s is waited out, and the phase completes
// on attempt 1 of 2: the wait uses no retry.
func TestSchedulerWaitsOutAUsageLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, singlePlan, 1, map[string][]fakeStep{"0": {{dur: time.Second, fail: failreport.RateLimited, resetIn: 5 * time.Second}}})
		f.sched.Agents = f.sched.Agents[:1]
		status, _ := f.sched.Execute(context.Background())
		require.Equal(t, state.RunComplete, status)
		r := f.runner
		require.Equal(t, 2, r.calls["0"], "the attempt ran again once")
		_, retried := r.start["0#2"]
		require.False(t, retried, "still attempt 1 of 2")
		waits := eventsOf(*f.events, event.PhaseWaiting)
		require.Len(t, waits, 1)
		require.Contains(t, waits[0].Line, "usage limit · resumes ")
		require.Contains(t, waits[0].Line, "(in 5s)")
		require.NotNil(t, waits[0].Until)
		require.Empty(t, eventsOf(*f.events, event.PhaseRetrying), "no retry is announced")
	})
}

// A usage limit past --wait-limit halts the run at once with the reset time
// in local time and the way to resume.
func TestSchedulerHaltsOnAUsageLimitPastTheWaitLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, singlePlan, 1, map[string][]fakeStep{"0": {{dur: time.Second, fail: failreport.RateLimited, resetIn: 8 * time.Hour}}})
		f.sched.Agents = f.sched.Agents[:1]
		reset := time.Now().Add(time.Second + 8*time.Hour)
		status, reason := f.sched.Execute(context.Background())
		require.Equal(t, state.RunHalted, status)
		require.Equal(t, 1, f.runner.calls["0"])
		require.Contains(t, reason, "Phase 0: one's usage limit resets at "+localClock(reset, time.Now().Add(time.Second)))
		require.Contains(t, reason, "(in 8h), past --wait-limit 6h")
		require.Contains(t, reason, "autobuild --resume")
		require.Empty(t, eventsOf(*f.events, event.PhaseWaiting))
	})
}

// --wait-limit 0 never waits.
func TestSchedulerWaitLimitZeroNeverWaits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, singlePlan, 1, map[string][]fakeStep{"0": {{dur: time.Second, fail: failreport.RateLimited, resetIn: 5 * time.Second}}})
		f.sched.Agents = f.sched.Agents[:1]
		f.sched.Limits.WaitLimit = 0
		status, reason := f.sched.Execute(context.Background())
		require.Equal(t, state.RunHalted, status)
		require.Contains(t, reason, "past --wait-limit 0 (never wait)")
	})
}

// A storm of 6 rate limits costs no retry: the attempt runs 7 times, after
// back-offs of 15 s, 30 s, 1 m, 2 m, 4 m and 5 m (no jitter here); a
// server's longer retry-after is honoured.
func TestSchedulerSurvivesARateLimitStorm(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		limited := fakeStep{dur: time.Second, fail: failreport.RateLimited}
		slow := limited
		slow.retryAfter = 90 * time.Second
		f := newSchedFixture(t, singlePlan, 1, map[string][]fakeStep{"0": {limited, limited, slow, limited, limited, limited}})
		f.sched.Agents = f.sched.Agents[:1]
		f.sched.Backoff = DefaultBackoff
		start := time.Now()
		status, _ := f.sched.Execute(context.Background())
		require.Equal(t, state.RunComplete, status)
		require.Equal(t, 7, f.runner.calls["0"], "6 limited runs and the one that succeeds")
		_, retried := f.runner.start["0#2"]
		require.False(t, retried)
		var got []time.Duration
		for _, e := range eventsOf(*f.events, event.PhaseWaiting) {
			got = append(got, e.Until.Sub(e.Time).Round(time.Second))
		}
		require.Equal(t, []time.Duration{15 * time.Second, 30 * time.Second, 90 * time.Second, 2 * time.Minute, 4 * time.Minute, 5 * time.Minute}, got)
		require.Equal(t, 7*time.Second+765*time.Second+30*time.Second, time.Since(start), "7 runs of 1 s and the waits")
	})
}

// Jitter spreads a back-off over ±20 %.
func TestJitterStaysWithinTwentyPercent(t *testing.T) {
	for range 200 {
		d := Jitter(100 * time.Second)
		require.GreaterOrEqual(t, d, 80*time.Second)
		require.LessOrEqual(t, d, 120*time.Second)
	}
}

// With two agents, a usage limit on the first moves the phase to the second
// at once, without waiting and without using the retry; a later phase
// starts on the free agent too.
func TestSchedulerMovesALimitedPhaseToTheNextAgent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, diamondPlan, 1, map[string][]fakeStep{"0": {{dur: time.Second, fail: failreport.RateLimited, resetIn: time.Hour}}})
		status, _ := f.sched.Execute(context.Background())
		require.Equal(t, state.RunComplete, status)
		r := f.runner
		require.Equal(t, []string{"0:one", "0:two", "1:two"}, r.agents[:3])
		require.Equal(t, r.end["0#1"], r.start["0#1"].Add(time.Second))
		_, retried := r.start["0#2"]
		require.False(t, retried)
		require.Empty(t, eventsOf(*f.events, event.PhaseWaiting), "no wait: the other agent is free")
		moves := eventsOf(*f.events, event.PhaseRetrying)
		require.Len(t, moves, 1)
		require.Equal(t, "one is limited: moving to two (does not use up the retry)", moves[0].Line)
	})
}

// When every agent is limited, the phase waits for the one whose limit
// lifts first.
func TestSchedulerWaitsForTheFirstAgentFreed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, singlePlan, 1, map[string][]fakeStep{"0": {
			{dur: time.Second, fail: failreport.RateLimited, resetIn: 2 * time.Hour},
			{dur: time.Second, fail: failreport.RateLimited, resetIn: time.Hour},
		}})
		status, _ := f.sched.Execute(context.Background())
		require.Equal(t, state.RunComplete, status)
		require.Equal(t, []string{"0:one", "0:two", "0:two"}, f.runner.agents)
		waits := eventsOf(*f.events, event.PhaseWaiting)
		require.NotEmpty(t, waits)
		require.Equal(t, "two", waits[0].Agent)
	})
}

// Ctrl-C during a wait ends it cleanly: no new attempt starts (no phantom
// "interrupted" attempt, no PHASE STARTED), and the phase is pending for
// resume.
func TestSchedulerCtrlCDuringAWaitStartsNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, singlePlan, 1, map[string][]fakeStep{"0": {{dur: time.Second, fail: failreport.RateLimited, resetIn: time.Hour}}})
		f.sched.Agents = f.sched.Agents[:1]
		status, _ := f.sched.Execute(canceledAfter(10 * time.Minute))
		require.Equal(t, state.RunInterrupted, status)
		require.Equal(t, 1, f.runner.calls["0"])
		ps := f.sched.Rec.Get("0")
		require.Equal(t, state.PhasePending, ps.Status)
		require.Len(t, ps.Attempts, 1)
		require.Len(t, eventsOf(*f.events, event.PhaseWaiting), 2, "at the start and after 5 minutes")
		require.Len(t, eventsOf(*f.events, event.PhaseInterrupted), 1)
	})
}

// A retry after a failure goes to a different agent than the one that
// failed: with three agents, the one after it.
func TestSchedulerRetryGoesToTheAgentAfterTheOneThatFailed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, singlePlan, 1, map[string][]fakeStep{"0": {
			{dur: time.Second, fail: failreport.RateLimited, resetIn: time.Hour}, // one is limited: two takes over
			{dur: time.Second, fail: failreport.TestFailure},                     // two fails: the retry goes to three
		}})
		f.sched.Agents = []agent.Agent{{Name: "one"}, {Name: "two"}, {Name: "three"}}
		status, _ := f.sched.Execute(context.Background())
		require.Equal(t, state.RunComplete, status)
		require.Equal(t, []string{"0:one", "0:two", "0:three"}, f.runner.agents)
	})
}

// A usage limit whose reset is already past is backed off like a rate
// limit, not repeated at once.
func TestSchedulerBacksOffAResetInThePast(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newSchedFixture(t, singlePlan, 1, map[string][]fakeStep{"0": {{dur: time.Second, fail: failreport.RateLimited, resetIn: -time.Hour}}})
		f.sched.Agents = f.sched.Agents[:1]
		f.sched.Backoff = DefaultBackoff
		start := time.Now()
		status, _ := f.sched.Execute(context.Background())
		require.Equal(t, state.RunComplete, status)
		require.Equal(t, 2*time.Second+15*time.Second, time.Since(start))
	})
}

// An agent that keeps reporting a limit needing no wait is stopped after
// maxLimitRepeats tries.
func TestSchedulerStopsEndlessInstantLimits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		steps := make([]fakeStep, 200)
		for i := range steps {
			steps[i] = fakeStep{dur: time.Second, fail: failreport.RateLimited}
		}
		f := newSchedFixture(t, singlePlan, 1, map[string][]fakeStep{"0": steps})
		f.sched.Backoff = func(int) time.Duration { return 0 }
		status, reason := f.sched.Execute(context.Background())
		require.Equal(t, state.RunHalted, status)
		require.Equal(t, maxLimitRepeats+1, f.runner.calls["0"])
		require.Contains(t, reason, "still limited by")
	})
}

// The exact reset of the CLI's structured output (claude's
// rate_limit_event) comes before the minute its words give.
func TestNoteLimitReadsTheSignalsResetFirst(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 26, 22, 0, 0, 0, time.UTC)
	exact := time.Date(2026, 11, 26, 22, 10, 2, 0, time.UTC)
	said := "You've hit your 5-hour limit · resets 10:10pm (UTC)"
	rep := failreport.Report{Type: failreport.RateLimited, Message: "rate limited by the model provider: API error 429: " + said}
	NoteLimit(&rep, &failure.AgentSignal{Type: failreport.RateLimited, ResetsAt: exact}, said, now)
	require.True(t, rep.UsageLimit)
	require.True(t, exact.Equal(*rep.ResetsAt), "resets at %s", rep.ResetsAt)

	// Without it, the words: the end of the printed minute.
	rep = failreport.Report{Type: failreport.RateLimited, Message: said}
	NoteLimit(&rep, &failure.AgentSignal{Type: failreport.RateLimited}, said, now)
	require.True(t, rep.UsageLimit)
	require.True(t, time.Date(2026, 11, 26, 22, 11, 0, 0, time.UTC).Equal(*rep.ResetsAt), "resets at %s", rep.ResetsAt)
}

func TestRoundWaitShowsDays(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		77*time.Hour + 4*time.Minute:  "3d5h",
		48 * time.Hour:                "2d",
		47*time.Hour + 10*time.Minute: "47h10m",
		1*time.Hour + 42*time.Minute:  "1h42m",
		32 * time.Second:              "32s",
	} {
		require.Equal(t, want, roundWait(d))
	}
}
