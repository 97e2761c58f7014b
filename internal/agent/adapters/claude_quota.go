package adapters

import (
	"time"

	"github.com/autobuild-sh/autobuild/internal/agent"
)

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
func claudeQuota(line string) (agent.Quota, bool) {
	var ev claudeQuotaLine
	if !decodeLine(line, &ev) || ev.Type != "rate_limit_event" || ev.Info == nil {
		return agent.Quota{}, false
	}
	q := agent.Quota{Type: ev.Info.RateLimitType, Status: ev.Info.Status, Utilization: -1}
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
