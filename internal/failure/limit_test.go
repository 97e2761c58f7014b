package failure

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestReadLimit(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	require.NoError(t, err)
	now := time.Date(2026, 11, 24, 1, 28, 0, 0, time.UTC)
	cases := []struct {
		name, text string
		want       Limit
	}{
		{"claude epoch", "Claude AI usage limit reached|1764041400",
			Limit{Usage: true, ResetsAt: time.Unix(1764041400, 0)}},
		{"codex days", "You've hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), or try again in 4 days 3 hours 2 minutes.",
			Limit{Usage: true, ResetsAt: now.Add(4*24*time.Hour + 3*time.Hour + 2*time.Minute)}},
		{"codex date", "You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/usage to purchase more credits or try again at Jan 15th, 2027 8:00 AM.",
			Limit{Usage: true, ResetsAt: time.Date(2027, 1, 15, 8, 0, 0, 0, time.UTC)}},
		{"codex seconds", "You've hit your usage limit. Try again in 5 seconds.",
			Limit{Usage: true, ResetsAt: now.Add(5 * time.Second)}},
		{"claude clock", "5-hour limit reached ∙ resets 3pm",
			Limit{Usage: true, ResetsAt: time.Date(2026, 11, 24, 15, 0, 0, 0, time.UTC)}},
		{"claude clock past today", "Claude usage limit reached. Your limit will reset at 1am.",
			Limit{Usage: true, ResetsAt: time.Date(2026, 11, 25, 1, 0, 0, 0, time.UTC)}},
		{"clock with zone", "Your limit will reset at 3:30pm (Europe/Paris)",
			Limit{Usage: true, ResetsAt: time.Date(2026, 11, 24, 15, 30, 0, 0, paris)}},
		{"codex rate limit", "Rate limit reached for gpt-5.5 on tokens per min (TPM): Limit 30000, Used 30000, Requested 1200. Please try again in 1.5s.",
			Limit{RetryAfter: 1500 * time.Millisecond}},
		{"retry-after header", "429 Too Many Requests (retry-after: 20)", Limit{RetryAfter: 20 * time.Second}},
		{"gemini retry delay", `"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "12s"`, Limit{RetryAfter: 12 * time.Second}},
		{"plain rate limit", "rate_limit_error: This request would exceed your organization's rate limit", Limit{}},
		{"gemini quota", "You exceeded your current quota, please check your plan and billing details.", Limit{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ReadLimit(c.text, now)
			require.Equal(t, c.want.Usage, got.Usage)
			require.True(t, c.want.ResetsAt.Equal(got.ResetsAt), "resets at %s, want %s", got.ResetsAt, c.want.ResetsAt)
			require.Equal(t, c.want.RetryAfter, got.RetryAfter)
		})
	}
}
