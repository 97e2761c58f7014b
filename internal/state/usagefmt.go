package state

import (
	"fmt"
	"strings"
)

// Summary is the usage in one short line: "12.3k in, 4.1k out, 20k cached,
// 7 turns, $0.42". Zero parts are left out.
func (u *Usage) Summary() string {
	if u == nil {
		return ""
	}
	parts := []string{Tokens(u.InputTokens) + " in", Tokens(u.OutputTokens) + " out"}
	if c := u.CacheReadTokens + u.CacheWriteTokens; c > 0 {
		parts = append(parts, Tokens(c)+" cached")
	}
	if u.Turns > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", u.Turns, map[bool]string{true: "turn", false: "turns"}[u.Turns == 1]))
	}
	if u.CostUSD > 0 {
		parts = append(parts, Cost(u.CostUSD))
	}
	return strings.Join(parts, ", ")
}

// Tokens shows a token count briefly: 950, 12.3k, 4.1M.
func Tokens(n int64) string {
	switch {
	case n >= 1_000_000:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/1e6)) + "M"
	case n >= 1000:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/1e3)) + "k"
	}
	return fmt.Sprint(n)
}

// Cost shows US dollars: $0.00 (nothing), $0.0016, $0.42, $12.30.
func Cost(usd float64) string {
	if usd < 0.01 && usd > 0 {
		return fmt.Sprintf("$%.4f", usd)
	}
	return fmt.Sprintf("$%.2f", usd)
}

func trimZero(s string) string { return strings.TrimSuffix(s, ".0") }

// TotalUsage is the sum of the usage of every attempt of the phase, nil
// when no attempt reported any.
func (p *Phase) TotalUsage() *Usage {
	var sum *Usage
	for i := range p.Attempts {
		sum = sum.Add(p.Attempts[i].Usage)
	}
	return sum
}

// RunUsage is the sum over phases, nil when none reported any.
func RunUsage(phases []*Phase) *Usage {
	var sum *Usage
	for _, p := range phases {
		if p != nil {
			sum = sum.Add(p.TotalUsage())
		}
	}
	return sum
}
