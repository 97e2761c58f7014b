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
			Limit{Usage: true, ResetsAt: time.Date(2027, 1, 15, 8, 1, 0, 0, time.UTC)}},
		{"codex seconds", "You've hit your usage limit. Try again in 5 seconds.",
			Limit{Usage: true, ResetsAt: now.Add(5 * time.Second)}},
		{"claude clock", "5-hour limit reached ∙ resets 3pm",
			Limit{Usage: true, ResetsAt: time.Date(2026, 11, 24, 15, 1, 0, 0, time.UTC)}},
		{"claude clock past today", "Claude usage limit reached. Your limit will reset at 1am.",
			Limit{Usage: true, ResetsAt: time.Date(2026, 11, 25, 1, 1, 0, 0, time.UTC)}},
		{"clock with zone", "Your limit will reset at 3:30pm (Europe/Paris)",
			Limit{Usage: true, ResetsAt: time.Date(2026, 11, 24, 15, 31, 0, 0, paris)}},
		{"codex rate limit", "Rate limit reached for gpt-5.5 on tokens per min (TPM): Limit 30000, Used 30000, Requested 1200. Please try again in 1.5s.",
			Limit{RetryAfter: 1500 * time.Millisecond}},
		{"retry-after header", "429 Too Many Requests (retry-after: 20)", Limit{RetryAfter: 20 * time.Second}},
		{"gemini retry delay", `"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "12s"`, Limit{RetryAfter: 12 * time.Second}},
		{"plain rate limit", "rate_limit_error: This request would exceed your organization's rate limit", Limit{}},
		{"gemini quota", "You exceeded your current quota, please check your plan and billing details.", Limit{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := ReadLimit(c.text, now)
			require.Equal(t, c.want.Usage, got.Usage)
			require.True(t, c.want.ResetsAt.Equal(got.ResetsAt), "resets at %s, want %s", got.ResetsAt, c.want.ResetsAt)
			require.Equal(t, c.want.RetryAfter, got.RetryAfter)
		})
	}
}

// The words of claude 2.1.330 and codex 0.169.0 as recorded against the
// mocks (testdata/agents/*/…limit*.stdout): the reset, read to the end of
// its printed minute, is today's when it is at or just before now (the limit
// lifts now, not in 24 hours), and a weekly limit's date is this year's.
func TestReadLimitOfTodaysCLIs(t *testing.T) {
	t.Parallel()
	at := func(h, m, s int) time.Time { return time.Date(2026, 11, 26, h, m, s, 0, time.UTC) }
	cases := []struct {
		name, text string
		now, want  time.Time
	}{
		{"5-hour ahead", "You've hit your 5-hour limit · resets 10:10pm (UTC)", at(19, 0, 0), at(22, 11, 0)},
		// The repeat ran 2 s past the printed minute (or 30 s into it)
		// and was refused again: the limit lifts within the minute.
		{"5-hour 2 s into its minute", "You've hit your 5-hour limit · resets 10:10pm (UTC)", at(22, 10, 2), at(22, 11, 0)},
		{"5-hour 30 s into its minute", "You've hit your 5-hour limit · resets 10:10pm (UTC)", at(22, 10, 30), at(22, 11, 0)},
		// A clock 2 s ahead of the provider's: due now, not tomorrow.
		{"5-hour just past", "You've hit your 5-hour limit · resets 10:10pm (UTC)", at(22, 11, 2), at(22, 11, 0)},
		{"5-hour a few minutes past", "You've hit your 5-hour limit · resets 10:10pm (UTC)", at(22, 15, 0), at(22, 11, 0)},
		{"5-hour long past is tomorrow", "You've hit your 5-hour limit · resets 10:10pm (UTC)", at(22, 30, 0), at(22, 11, 0).AddDate(0, 0, 1)},
		{"limit with overage", "You've hit your limit · resets 12:49am (UTC)", at(23, 20, 0), time.Date(2026, 11, 27, 0, 50, 0, 0, time.UTC)},
		{"weekly", "You've hit your weekly limit · resets Nov 29, 11:23pm (UTC)", at(12, 0, 0), time.Date(2026, 11, 29, 23, 24, 0, 0, time.UTC)},
		{"weekly next year", "You've hit your weekly limit · resets Jan 2, 9am (UTC)", at(12, 0, 0), time.Date(2027, 1, 2, 9, 1, 0, 0, time.UTC)},
		{"opus", "You've hit your Opus limit · resets Dec 1, 7:29pm (UTC)", at(12, 0, 0), time.Date(2026, 12, 1, 19, 30, 0, 0, time.UTC)},
		{"codex today", "You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/usage to purchase more credits or try again at 10:11 PM.", at(21, 0, 0), at(22, 12, 0)},
		{"codex today, refused 30 s into the minute", "You’ve hit your usage limit. … or try again at 10:11 PM.", at(22, 11, 30), at(22, 12, 0)},
		{"codex another day", "You’ve hit your usage limit. … or try again at Dec 1st, 2026 7:29 PM.", at(21, 0, 0), time.Date(2026, 12, 1, 19, 30, 0, 0, time.UTC)},
		{"codex in days", "You've hit your usage limit. … or try again in 4 days 20 hours 9 minutes.", at(21, 0, 0), at(21, 0, 0).Add(4*24*time.Hour + 20*time.Hour + 9*time.Minute)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := ReadLimit(c.text, c.now)
			require.True(t, got.Usage, "a usage limit")
			require.True(t, c.want.Equal(got.ResetsAt), "resets at %s, want %s", got.ResetsAt, c.want)
		})
	}
}

func TestLimitName(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		"API error 429: You've hit your weekly limit · resets Nov 29, 11:23pm (UTC)": "weekly limit",
		"You've hit your 5-hour limit · resets 10:10pm (UTC)":                        "5-hour limit",
		"You've hit your Opus limit · resets Dec 1, 7:29pm (UTC)":                    "Opus limit",
		"You've hit your limit · resets 12:49am (UTC)":                               "usage limit",
		"You’ve hit your usage limit. … try again at 10:11 PM.":                      "usage limit",
		"Claude AI usage limit reached|1800000000":                                   "usage limit",
	} {
		require.Equal(t, want, LimitName(text), text)
	}
}
