package failure

import (
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"time"
)

// AgentSignal is a failure a preset agent CLI reported about itself: read by
// its adapter from the CLI's structured output (an HTTP status, an error
// kind, an exit status it documents) first, and from the CLI's own words
// second; never from stderr it echoed or from a tool's output.
type AgentSignal struct {
	// Type is AgentSetup, RateLimited, ContextExhausted or AgentError.
	Type    failreport.Type
	Message string
	// Fix is the exact fix of an AgentSetup problem.
	Fix string
	// ResetsAt is a usage limit's exact reset from the CLI's structured
	// output (claude's rate_limit_event), zero when it gave none.
	ResetsAt time.Time
}

// agentSignalReport is step 2b of Classify: the failure the agent CLI
// reported, when it reported one.
func agentSignalReport(ev Evidence) (failreport.Report, bool) {
	s := ev.AgentSignal
	if s == nil {
		return failreport.Report{}, false
	}
	msg := shorten(s.Message)
	switch s.Type {
	case failreport.AgentSetup:
		return failreport.Report{Type: failreport.AgentSetup, Message: msg, Fix: s.Fix,
			BlockedOn: "the agent CLI's setup", Details: "running the agent again changes nothing until this is fixed"}, true
	case failreport.RateLimited:
		return failreport.Report{Type: failreport.RateLimited, Message: "rate limited by the model provider: " + msg,
			BlockedOn: "the model provider's rate limit"}, true
	case failreport.ContextExhausted:
		return failreport.Report{Type: failreport.ContextExhausted, Message: "the agent ran out of context: " + msg,
			BlockedOn: "the model's context window"}, true
	case failreport.AgentError:
		return failreport.Report{Type: failreport.AgentError, Message: msg, Details: lastOutputDetails(ev.AgentOutput),
			BlockedOn: msg}, true
	}
	return failreport.Report{}, false
}
