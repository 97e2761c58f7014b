package budget

import (
	"strings"

	"github.com/autobuild-sh/autobuild/internal/state"
)

// Rate is a model family's list price in US dollars per million tokens,
// for agent CLIs that report tokens but no cost (docs/notify.md#budgets).
type Rate struct {
	// Prefix matches the model name the CLI reports ("gpt-5" matches
	// "gpt-5-codex"); the longest matching prefix wins.
	Prefix                               string
	Input, Output, CacheRead, CacheWrite float64
}

// Rates is the rate table: list prices of the models the preset agents
// run, as their providers publish them. claude prices its own runs
// (total_cost_usd), so its rows serve only a CLI that reports a claude
// model without a cost. A model not in the table is unpriced.
func Rates() []Rate {
	return []Rate{
		{Prefix: "claude-opus-4-5", Input: 5, Output: 25, CacheRead: 0.5, CacheWrite: 6.25},
		{Prefix: "claude-opus-4", Input: 15, Output: 75, CacheRead: 1.5, CacheWrite: 18.75},
		{Prefix: "claude-sonnet-4", Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75},
		{Prefix: "claude-haiku-4", Input: 1, Output: 5, CacheRead: 0.1, CacheWrite: 1.25},
		{Prefix: "gpt-5-mini", Input: 0.25, Output: 2, CacheRead: 0.025},
		{Prefix: "gpt-5", Input: 1.25, Output: 10, CacheRead: 0.125},
		{Prefix: "o4-mini", Input: 1.1, Output: 4.4, CacheRead: 0.275},
		{Prefix: "gemini-2.5-pro", Input: 1.25, Output: 10, CacheRead: 0.31},
		{Prefix: "gemini-2.5-flash", Input: 0.3, Output: 2.5, CacheRead: 0.075},
	}
}

// rateFor is the table's row for a model, longest prefix first.
func rateFor(model string) (Rate, bool) {
	model = strings.ToLower(strings.TrimSpace(model))
	best, found := Rate{}, false
	if model == "" {
		return best, false
	}
	for _, r := range Rates() {
		if strings.HasPrefix(model, r.Prefix) && len(r.Prefix) > len(best.Prefix) {
			best, found = r, true
		}
	}
	return best, found
}

// Price is what an attempt's usage cost: the cost the CLI reported, else
// its tokens at the rate table's price of its model. priced is false when
// neither is known (no usage reported at all, or a model not in the
// table): the budget cannot count it.
func Price(u *state.Usage) (usd float64, priced bool) {
	if u == nil {
		return 0, false
	}
	if u.CostUSD > 0 {
		return u.CostUSD, true
	}
	if u.InputTokens+u.OutputTokens+u.CacheReadTokens+u.CacheWriteTokens == 0 {
		return 0, true
	}
	r, ok := rateFor(u.Model)
	if !ok {
		return 0, false
	}
	const perToken = 1e-6
	return perToken * (float64(u.InputTokens)*r.Input + float64(u.OutputTokens)*r.Output +
		float64(u.CacheReadTokens)*r.CacheRead + float64(u.CacheWriteTokens)*r.CacheWrite), true
}
