package agent

import (
	"time"
)

// Quota is what an agent CLI reported of its provider's usage limit while
// it ran: how much of the window is used and when it resets. The engine
// starts fewer phases at once when it runs low (docs/limits.md).
type Quota struct {
	// Type is the limit's window as the CLI names it ("five_hour",
	// "seven_day"), "" when not said.
	Type string
	// Status is "allowed", "allowed_warning" (near the limit) or
	// "rejected" (at it), as claude says.
	Status string
	// Utilization is the share of the window used, 0 to 1; -1 when the
	// CLI did not say.
	Utilization float64
	// ResetsAt is when the window resets; zero when not said.
	ResetsAt time.Time
}

// Low reports whether the quota is near its limit: the CLI warns, is
// refused, or has used 80 % of the window.
func (q Quota) Low() bool {
	return q.Status == "allowed_warning" || q.Status == "rejected" || q.Utilization >= 0.8
}

// VeryLow reports whether the quota is all but spent: refused, or 95 %
// of the window used.
func (q Quota) VeryLow() bool { return q.Status == "rejected" || q.Utilization >= 0.95 }

// claudeRateLimit is claude's stream-json rate_limit_event line:
//
//	{"type":"rate_limit_event","rate_limit_info":{"status":"allowed_warning",
//	 "resetsAt":1771390800,"rateLimitType":"five_hour","utilization":0.86,
//	 "isUsingOverage":false},"session_id":"…"}
//
// claude's parser reads the exact reset of a refused request from the
// same event (claudeRateLimit); this reads the headroom, and takes the
// fields in every form claude has sent them (a float, milliseconds, a
// percentage).
type claudeQuotaLine struct {
	Type string `json:"type"`
	Info *struct {
		Status        string   `json:"status"`
		ResetsAt      *float64 `json:"resetsAt"`
		RateLimitType string   `json:"rateLimitType"`
		Utilization   *float64 `json:"utilization"`
		// UnifiedWindows is how claude 2.1.330 says each window's use
		// (recorded in testdata/agents/claude/usage_limit.stdout):
		// {"five_hour":{"utilization":1,"resetsAt":…,"status":"rejected"}}.
		UnifiedWindows map[string]struct {
			Utilization *float64 `json:"utilization"`
		} `json:"unifiedWindows"`
	} `json:"rate_limit_info"`
}

// claudeQuota reads a rate_limit_event line; false for any other line.
func claudeQuota(line string) (Quota, bool) {
	var ev claudeQuotaLine
	if !decodeLine(line, &ev) || ev.Type != "rate_limit_event" || ev.Info == nil {
		return Quota{}, false
	}
	q := Quota{Type: ev.Info.RateLimitType, Status: ev.Info.Status, Utilization: -1}
	u := ev.Info.Utilization
	if w, ok := ev.Info.UnifiedWindows[ev.Info.RateLimitType]; u == nil && ok {
		u = w.Utilization
	}
	if u != nil && *u >= 0 {
		q.Utilization = *u
		if q.Utilization > 1 && q.Utilization <= 100 {
			q.Utilization /= 100 // a percentage
		}
	}
	if r := ev.Info.ResetsAt; r != nil && *r > 0 {
		sec := int64(*r)
		if sec > 1e12 {
			sec /= 1000 // milliseconds
		}
		q.ResetsAt = time.Unix(sec, 0)
	}
	return q, true
}

// ModelArg is the model the user chose in a preset's extra arguments
// (`--agent 'codex -m gpt-5-codex'`: "--model X", "--model=X", "-m X"),
// "" when none. A CLI whose stream names no model (codex) is priced by
// it (package budget).
func ModelArg(extra []string) string {
	for i, a := range extra {
		switch {
		case (a == "--model" || a == "-m") && i+1 < len(extra):
			return extra[i+1]
		case len(a) > len("--model=") && a[:len("--model=")] == "--model=":
			return a[len("--model="):]
		}
	}
	return ""
}
