package mockapi

import "time"

// Failure is an HTTP error a server can answer with, in the API's own error shape.
type Failure string

// The failures every server knows.
const (
	Unauthorized  Failure = "unauthorized"    // 401: a bad or revoked key
	Forbidden     Failure = "forbidden"       // 403: the key may not use this model
	RateLimited   Failure = "rate_limited"    // 429, with a retry-after header
	Overloaded    Failure = "overloaded"      // claude 529, codex and gemini 503
	PromptTooLong Failure = "prompt_too_long" // 400: the prompt exceeds the context window
	// UsageLimit is a subscription's usage limit with its reset time (claude
	// and codex only), as the subscription APIs answer it: for claude a 429
	// whose anthropic-ratelimit-unified-* headers say the five-hour window is
	// rejected until the reset (claude prints "You've hit your 5-hour limit ·
	// resets 8am (UTC)"); for codex usage_limit_reached with resets_at.
	UsageLimit Failure = "usage_limit"
	// WeeklyLimit is claude's weekly (seven-day) limit, codex's usage limit
	// days away.
	WeeklyLimit Failure = "weekly_limit"
	// OpusLimit is claude's seven-day limit of its Opus models.
	OpusLimit Failure = "opus_limit"
	// HighDemand is codex's 5xx "We're currently experiencing high demand".
	HighDemand Failure = "high_demand"
)

// UsageLimitReset is the reset moment the mocks' usage limits name:
// 2027-01-15 08:00 UTC.
const UsageLimitReset = 1800000000

// Failures lists every Failure, for table tests.
func Failures() []Failure {
	return []Failure{Unauthorized, Forbidden, RateLimited, Overloaded, PromptTooLong}
}

// Reply is one scripted answer to one model request.
type Reply struct {
	// Path and Content make the reply a call of the CLI's file-writing tool
	// (claude Write, codex exec_command, gemini write_file). A relative Path is
	// taken from the CLI's working directory, read from its request.
	Path, Content string
	// Text makes the reply a final assistant message.
	Text string
	// Failure makes the reply an HTTP error.
	Failure Failure
	// RetryAfter is the retry-after header sent with a RateLimited failure.
	RetryAfter time.Duration
	// Delay holds the answer back this long, as a model that takes its time:
	// the CLI prints nothing meanwhile.
	Delay time.Duration
	// Message, when set, replaces the failure's error message.
	Message string
	// ResetsAt, when set, is the reset a usage limit names instead of
	// UsageLimitReset.
	ResetsAt time.Time
	// NoResetsAt leaves the absolute reset out of codex's usage limit: it
	// then has only resets_in_seconds (codex says "try again in N days …").
	NoResetsAt bool
}

// Resetting is a usage-limit reply naming the reset at.
func (r Reply) Resetting(at time.Time) Reply {
	r.ResetsAt = at
	return r
}

// resetsAt is when the reply's usage limit lifts.
func (r Reply) resetsAt() time.Time {
	if !r.ResetsAt.IsZero() {
		return r.ResetsAt
	}
	return time.Unix(UsageLimitReset, 0)
}

// After returns the reply held back by d.
func (r Reply) After(d time.Duration) Reply {
	r.Delay = d
	return r
}

// WriteFile is a reply that calls the CLI's file tool to write content at path.
func WriteFile(path, content string) Reply { return Reply{Path: path, Content: content} }

// Text is a reply that ends the turn with a final assistant message.
func Text(text string) Reply { return Reply{Text: text} }

// Fail is a reply that answers with the API's HTTP error for f.
func Fail(f Failure) Reply { return Reply{Failure: f, RetryAfter: time.Second} }

// isUsage says whether f is a subscription's usage limit.
func (f Failure) isUsage() bool { return f == UsageLimit || f == WeeklyLimit || f == OpusLimit }

func (r Reply) isWrite() bool { return r.Failure == "" && r.Path != "" }
