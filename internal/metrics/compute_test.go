package metrics

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/history"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// week is a small history: three runs of one plan, one of them halted and
// resumed by a person, with a second agent taking a retry.
func week() []history.Record {
	b := newBuilder()
	b.newRun().
		ok("1", cost(1000, 100, 0.10)).
		fail("2a", "test_failure", cost(2000, 200, 0.20), msg("test gate failed: 2 tests failing (TestA) in api/a.go:12")).
		ok("2a", retry(), recovered("retry", 120), cost(1000, 100, 0.10)).
		ok("2b", cost(500, 50, 0.05)).
		end("complete")
	b.newRun().
		ok("1", cost(1000, 100, 0.10)).
		fail("2a", "test_failure", msg("test gate failed: 3 tests failing (TestA) in web/b.go:7")).
		fail("2a", "lint_error", agent("codex"), reassigned()).
		end("halted", "2a")
	b.resume().
		interrupted("2a").
		end("interrupted")
	b.resume().
		ok("2a", recovered("resume", 3600)).
		ok("2b").
		end("complete")
	b.newRun().
		fail("1", "agent_error").
		fail("1", "agent_error", retry()).
		end("halted", "1")
	return b.recs
}

func TestComputeAggregates(t *testing.T) {
	t.Parallel()
	rep := Compute(week(), Filter{}, t0.Add(24*time.Hour))
	require.Equal(t, 3, rep.Runs)
	require.Equal(t, 5, rep.Sessions)
	require.Equal(t, 12, rep.Attempts)
	require.Equal(t, 1, rep.Interrupted)
	require.Equal(t, 5, rep.Failures)
	require.InDelta(t, 5.0/11, *rep.FailureRate, 1e-9, "interrupted attempts are out of the rate")

	require.Equal(t, []TypeCount{{"agent_error", 2, 0.4}, {"test_failure", 2, 0.4}, {"lint_error", 1, 0.2}}, rep.ByType)

	require.Len(t, rep.ByAgent, 2)
	require.Equal(t, "claude", rep.ByAgent[0].Agent)
	require.Equal(t, 10, rep.ByAgent[0].Attempts)
	require.Equal(t, 4, rep.ByAgent[0].Failures)
	require.Equal(t, []string{"m1"}, rep.ByAgent[0].Models)
	require.InDelta(t, 0.55, rep.ByAgent[0].CostUSD, 1e-9)
	require.Equal(t, AgentStats{Agent: "codex", Models: []string{}, Attempts: 1, Failures: 1, FailureRate: f(1)}, rep.ByAgent[1])

	require.Equal(t, 3, rep.Retry.Total)
	require.Equal(t, 1, rep.Retry.Succeeded)
	require.InDelta(t, 1.0/3, *rep.Retry.Rate, 1e-9)
	require.InDelta(t, 0.9, *rep.Retry.Goal, 1e-9)
	require.Equal(t, Rate{Total: 1, Succeeded: 0, Rate: f(0)}, rep.Reassignment)

	require.Equal(t, Recovery{Count: 2, ByRetry: 1, ByResume: 1, MedianSeconds: f(120), P90Seconds: f(3600)}, rep.Recovery)

	// Phase runs: run 1 has 1, 2a, 2b; run 2 has 1, 2a, then 2a, 2b in its
	// last session (the interrupted one counts none); run 3 has 1.
	require.Equal(t, Escalation{PhaseRuns: 8, Escalated: 2, Rate: f(0.25), Goal: 0.05}, rep.Escalation)

	require.InDelta(t, 0.55, rep.Cost.TotalUSD, 1e-9)
	require.Equal(t, int64(5500), rep.Cost.InputTokens)
	require.Equal(t, int64(550), rep.Cost.OutputTokens)
	require.Equal(t, 5, rep.Cost.AttemptsWithUsage)
	require.InDelta(t, 0.55/2, *rep.Cost.PerRunUSD, 1e-9, "over the runs that reported usage")
	require.InDelta(t, 0.55/4, *rep.Cost.PerPhaseUSD, 1e-9, "1, 2a, 2b of run 1 and 1 of run 2")
	require.InDelta(t, 6050.0/4, *rep.Cost.PerPhaseTokens, 1e-9)

	require.Equal(t, []string{"2a", "1", "2b"}, phaseIDs(rep.Phases), "most failures first")
	require.Equal(t, PhaseStats{Plan: "plan.md", Phase: "2a", Name: "Phase 2a", Runs: 2, Attempts: 5, Failures: 3,
		FailureRate: f(0.6), Tokens: 3300, CostUSD: 0.3}, rep.Phases[0])

	require.Len(t, rep.RunList, 3)
	require.Equal(t, []string{"complete", "complete", "halted"},
		[]string{rep.RunList[0].Status, rep.RunList[1].Status, rep.RunList[2].Status}, "oldest first, the last session's end")
	require.Equal(t, 3, rep.RunList[1].Sessions)
	require.Equal(t, 2, rep.RunList[1].Failures)

	require.Equal(t, FailureGroup{Type: "test_failure", Pattern: "test gate failed: N tests failing (TestA) in <path>",
		Count: 2, Phases: []phaseid.Display{"2a"}, Example: "test gate failed: 3 tests failing (TestA) in web/b.go:7",
		Last: t0.Add(7 * time.Minute)}, rep.TopFailures[1], "one cause in two runs, the latest message as example")
	require.Equal(t, "agent_error", rep.TopFailures[0].Type, "a tie goes to the most recent")
	require.Len(t, rep.TopFailures, 3)
}

func phaseIDs(ps []PhaseStats) []string {
	var out []string
	for _, p := range ps {
		out = append(out, string(p.Phase))
	}
	return out
}

func TestComputeWithNothing(t *testing.T) {
	t.Parallel()
	rep := Compute(nil, Filter{}, t0)
	require.Zero(t, rep.Attempts)
	require.Nil(t, rep.FailureRate, "no rate without attempts")
	require.Nil(t, rep.Retry.Rate)
	require.Nil(t, rep.Recovery.MedianSeconds)
	require.Nil(t, rep.Cost.PerRunUSD)
	require.Empty(t, rep.Alerts)
	require.NotNil(t, rep.ByType, "lists are [] in JSON, never null")
}

func TestFilters(t *testing.T) {
	t.Parallel()
	b := newBuilder()
	b.newRun().fail("1", "timeout").end("halted", "1")
	b.plan = "other/plan.md"
	b.newRun().ok("1").ok("2").end("complete")

	rep := Compute(b.recs, Filter{Plans: []string{"./other/plan.md"}}, t0)
	require.Equal(t, 1, rep.Runs)
	require.Equal(t, 2, rep.Attempts)
	require.Zero(t, rep.Failures)

	rep = Compute(b.recs, Filter{Since: t0.Add(3 * time.Minute)}, t0)
	require.Equal(t, 1, rep.Runs, "the older run's records are out of the window")
	require.Equal(t, 2, rep.Attempts)
}

func TestNormalizeGroupsOneCause(t *testing.T) {
	t.Parallel()
	tests := []struct{ a, b string }{
		{"exit status 2 after 31.5s in calc/format.go:12", "exit status 1 after 2s in api/x.go:3"},
		{"cherry-pick of 3f9a2c1d failed", "cherry-pick of 0b1c2d3e4f failed"},
		{"go: cannot find /usr/local/go/bin/go", "go: cannot find /opt/go/bin/go"},
		{"rate limited:  retry in 30s", "rate limited: retry in 120s"},
	}
	for _, tt := range tests {
		require.Equal(t, Normalize(tt.a), Normalize(tt.b), "%q and %q", tt.a, tt.b)
	}
	require.NotEqual(t, Normalize("test gate failed (TestA)"), Normalize("lint gate failed (TestA)"))
	require.Equal(t, "deadbeef is not a hash without a digit", Normalize("deadbeef is not a hash without a digit"))
}

func TestPercentileIsNearestRank(t *testing.T) {
	t.Parallel()
	xs := []float64{10, 1, 7, 3, 5, 9, 2, 8, 4, 6}
	require.InDelta(t, 5, *percentile(xs, 0.5), 0)
	require.InDelta(t, 9, *percentile(xs, 0.9), 0)
	require.InDelta(t, 4, *percentile([]float64{4}, 0.9), 0)
	require.Nil(t, percentile(nil, 0.5))
	require.Equal(t, []float64{10, 1, 7, 3, 5, 9, 2, 8, 4, 6}, xs, "the input is left alone")
}
