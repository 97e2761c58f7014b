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
	// and codex only): claude's "Claude AI usage limit reached|<epoch>",
	// codex's usage_limit_reached with resets_in_seconds.
	UsageLimit Failure = "usage_limit"
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
	// Message, when set, replaces the failure's error message (a usage
	// limit with a reset time of the test's choosing).
	Message string
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

func (r Reply) isWrite() bool { return r.Failure == "" && r.Path != "" }
