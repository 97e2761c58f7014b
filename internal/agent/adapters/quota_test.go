package adapters

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
)

// claude's rate_limit_event, in the form its stream-json prints it
// (type, rate_limit_info with status, resetsAt in Unix seconds,
// rateLimitType, and utilization when the CLI knows it).
const claudeRateLimitLine = `{"type":"rate_limit_event","rate_limit_info":{"status":"allowed_warning","resetsAt":1771390800,"rateLimitType":"five_hour","utilization":0.86,"overageStatus":"rejected","isUsingOverage":false},"uuid":"76258cfb-0dc8-4d4b-8682-77082b59c03f","session_id":"1ae0af5b-89fa-4075-8156-d5d3702f6505"}`

func TestClaudeQuota(t *testing.T) {
	t.Parallel()
	q, ok := claudeQuota(claudeRateLimitLine)
	require.True(t, ok)
	require.Equal(t, agent.Quota{Type: "five_hour", Status: "allowed_warning", Utilization: 0.86, ResetsAt: time.Unix(1771390800, 0)}, q)
	require.True(t, q.Low())
	require.False(t, q.VeryLow())

	q, ok = claudeQuota(`{"type":"rate_limit_event","rate_limit_info":{"status":"allowed","resetsAt":1771390800,"rateLimitType":"seven_day"}}`)
	require.True(t, ok)
	require.Equal(t, -1.0, q.Utilization, "not said")
	require.False(t, q.Low())

	_, ok = claudeQuota(`{"type":"system","subtype":"init"}`)
	require.False(t, ok)

	// The parser hands it on as a note without text.
	p := claudeAdapter{}.NewParser("", t.TempDir())
	notes := p.Stdout(claudeRateLimitLine)
	require.Len(t, notes, 1)
	require.NotNil(t, notes[0].Quota)
	require.Empty(t, notes[0].Text)
}

func TestModelArg(t *testing.T) {
	t.Parallel()
	require.Equal(t, "gpt-5-codex", agent.ModelArg([]string{"-m", "gpt-5-codex"}))
	require.Equal(t, "o4-mini", agent.ModelArg([]string{"--full-auto", "--model=o4-mini"}))
	require.Equal(t, "opus", agent.ModelArg([]string{"--model", "opus"}))
	require.Empty(t, agent.ModelArg([]string{"--model"}))
	require.Empty(t, agent.ModelArg(nil))
}

// A refused request's rate_limit_event gives both readings: the quota note
// (the scheduler starts fewer phases) and the exact reset the parser keeps
// for the usage-limit signal. Before the two readers were merged, the
// quota's early return hid the reset.
func TestClaudeRejectedRateLimitGivesQuotaAndReset(t *testing.T) {
	t.Parallel()
	p := claudeAdapter{}.NewParser("", t.TempDir())
	notes := p.Stdout(`{"type":"rate_limit_event","rate_limit_info":{"status":"rejected","resetsAt":1795742771,"rateLimitType":"five_hour"}}`)
	require.Len(t, notes, 1)
	require.NotNil(t, notes[0].Quota)
	require.True(t, notes[0].Quota.VeryLow())
	cp := p.(*claudeParser)
	require.NotNil(t, cp.limit, "the exact reset is kept")
	require.Equal(t, int64(1795742771), cp.limit.ResetsAt)
}
