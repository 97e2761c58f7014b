package state

// Usage is what an attempt cost at the model provider, as the agent CLI
// reports it: tokens, turns and, where the CLI prices it, US dollars. A nil
// *Usage means the agent reported nothing (plain commands, the simulated
// agent unless its scenario says otherwise).
type Usage struct {
	// Model is the model the CLI says it used ("claude-sonnet-4-5"), if any.
	Model            string  `json:"model,omitempty"`
	InputTokens      int64   `json:"input_tokens"`
	OutputTokens     int64   `json:"output_tokens"`
	CacheReadTokens  int64   `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens int64   `json:"cache_write_tokens,omitempty"`
	Turns            int     `json:"turns,omitempty"`
	CostUSD          float64 `json:"cost_usd,omitempty"`
}

// Add returns the sum of two usages (either may be nil); nil when both are.
// A model name is kept when both name the same one.
func (u *Usage) Add(v *Usage) *Usage {
	if u == nil && v == nil {
		return nil
	}
	var a, b Usage
	if u != nil {
		a = *u
	}
	if v != nil {
		b = *v
	}
	sum := Usage{
		InputTokens:      a.InputTokens + b.InputTokens,
		OutputTokens:     a.OutputTokens + b.OutputTokens,
		CacheReadTokens:  a.CacheReadTokens + b.CacheReadTokens,
		CacheWriteTokens: a.CacheWriteTokens + b.CacheWriteTokens,
		Turns:            a.Turns + b.Turns,
		CostUSD:          a.CostUSD + b.CostUSD,
	}
	switch {
	case a.Model == b.Model || b.Model == "":
		sum.Model = a.Model
	case a.Model == "":
		sum.Model = b.Model
	}
	return &sum
}
