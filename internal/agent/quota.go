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
