package agent_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agenttest"
	"github.com/autobuild-sh/autobuild/internal/agenttest/mockapi"
	"github.com/autobuild-sh/autobuild/internal/failure"
)

// The limits and context errors of the real CLIs, as recorded against the
// mocks: each is the signal autobuild acts on, and a usage limit's reset
// time is read from the CLI's own words (claude's epoch, codex's date).
func TestLimitsOnRecordedOutput(t *testing.T) {
	t.Parallel()
	reset := time.Unix(mockapi.UsageLimitReset, 0).UTC()
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		cli, name string
		signal    failure.Type
		usage     bool
		resetsAt  time.Time
	}{
		{"claude", "usage_limit", failure.RateLimited, true, reset},
		{"codex", "usage_limit", failure.RateLimited, true, reset},
		{"codex", "high_demand", failure.RateLimited, false, time.Time{}},
		{"codex", "rate_429", failure.RateLimited, false, time.Time{}},
		{"gemini", "prompt_too_long", failure.ContextExhausted, false, time.Time{}},
		{"codex", "prompt_too_long", failure.ContextExhausted, false, time.Time{}},
		{"claude", "prompt_too_long", failure.ContextExhausted, false, time.Time{}},
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
