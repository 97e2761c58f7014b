package adapters_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/agenttest"
	"github.com/autobuild-sh/autobuild/internal/agenttest/mockapi"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/failure"
)

// The limits and context errors of the real CLIs, as recorded against the
// mocks: each is the signal autobuild acts on. A usage limit's exact reset
// comes from claude's rate_limit_event; its words give it to the minute
// (read as that minute's end): claude's "You've hit your 5-hour limit ·
// resets 1:26am (UTC)", "… weekly limit · resets Nov 30, 4:26am (UTC)",
// codex's "try again at 11:30 PM." and "try again at Jan 15th, 2027 8:00
// AM.".
func TestLimitsOnRecordedOutput(t *testing.T) {
	t.Parallel()
	// The fixtures were recorded at 2026-11-26 23:26 UTC (claude's
	// "timestamp"); codex's usage_limit names the mock's fixed reset.
	now := time.Date(2026, 11, 26, 23, 26, 0, 0, time.UTC)
	utc := func(mo time.Month, d, h, m int) time.Time { return time.Date(2026, mo, d, h, m, 0, 0, time.UTC) }
	cases := []struct {
		cli, name string
		signal    failreport.Type
		usage     bool
		// exact is the reset of claude's rate_limit_event; resetsAt the
		// one read from the words.
		exact, resetsAt time.Time
	}{
		{"claude", "usage_limit", failreport.RateLimited, true, time.Unix(1795742771, 0), utc(11, 27, 1, 27)},
		{"claude", "weekly_limit", failreport.RateLimited, true, time.Unix(1796012766, 0), utc(11, 30, 4, 27)},
		{"claude", "opus_limit", failreport.RateLimited, true, time.Unix(1796081171, 0), utc(11, 30, 23, 27)},
		{"codex", "usage_limit", failreport.RateLimited, true, time.Time{}, time.Unix(mockapi.UsageLimitReset, 0).Add(time.Minute)},
		{"codex", "usage_limit_today", failreport.RateLimited, true, time.Time{}, utc(11, 26, 23, 31)},
		{"codex", "high_demand", failreport.RateLimited, false, time.Time{}, time.Time{}},
		{"codex", "rate_429", failreport.RateLimited, false, time.Time{}, time.Time{}},
		{"gemini", "prompt_too_long", failreport.ContextExhausted, false, time.Time{}, time.Time{}},
		{"codex", "prompt_too_long", failreport.ContextExhausted, false, time.Time{}, time.Time{}},
		{"claude", "prompt_too_long", failreport.ContextExhausted, false, time.Time{}, time.Time{}},
	}
	classifier, err := failure.NewClassifier(nil)
	require.NoError(t, err)
	for _, c := range cases {
		t.Run(c.cli+"/"+c.name, func(t *testing.T) {
			t.Parallel()
			f := loadFixture(t, c.cli, c.name)
			_, out := play(t, c.cli, f, agenttest.Prompt)
			require.NotNil(t, out.Signal, "said: %q", out.Said)
			require.Equal(t, c.signal, out.Signal.Type, "%+v", out.Signal)
			require.True(t, c.exact.Equal(out.Signal.ResetsAt), "exact reset %s, want %s", out.Signal.ResetsAt, c.exact)
			l := failure.ReadLimit(out.Signal.Message+"\n"+out.Said, now)
			require.Equal(t, c.usage, l.Usage, "%+v", out.Signal)
			require.True(t, c.resetsAt.Equal(l.ResetsAt), "resets at %s, want %s", l.ResetsAt, c.resetsAt)

			// Run as a plain command (no adapter), the same output is
			// classified alike by the built-in table.
			rep := classifier.Classify(failure.Evidence{AgentRan: true, AgentExitCode: max(f.exit, 1),
				AgentCommand: "./agent.sh", AgentOutput: f.stdout + "\n" + f.stderr})
			require.Equal(t, c.signal, rep.Type, "message: %s", rep.Message)
		})
	}
}

// The quota note comes from what the real claude sends: its recorded
// rate_limit_event says the window, the refusal, the exact reset, and the
// window's use in unifiedWindows (not at the top level).
func TestQuotaOnRecordedClaudeOutput(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, window string
		reset        int64
	}{
		{"usage_limit", "five_hour", 1795742771},
		{"weekly_limit", "seven_day", 1796012766},
		{"opus_limit", "seven_day_opus", 1796081171},
	} {
		notes, _ := play(t, "claude", loadFixture(t, "claude", c.name), agenttest.Prompt)
		var q *agent.Quota
		for _, n := range notes {
			if n.Quota != nil {
				q = n.Quota
			}
		}
		require.NotNil(t, q, "%s: a quota note", c.name)
		require.Equal(t, c.window, q.Type, c.name)
		require.Equal(t, "rejected", q.Status, c.name)
		require.True(t, q.VeryLow(), c.name)
		require.Equal(t, time.Unix(c.reset, 0), q.ResetsAt, c.name)
	}
	notes, _ := play(t, "claude", loadFixture(t, "claude", "usage_limit"), agenttest.Prompt)
	for _, n := range notes {
		if n.Quota != nil {
			require.Equal(t, 1.0, n.Quota.Utilization, "read from unifiedWindows")
		}
	}
}
