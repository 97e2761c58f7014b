package failure

import "time"

// AgentSignal is a failure a preset agent CLI reported about itself: read by
// its adapter from the CLI's structured output (an HTTP status, an error
// kind, an exit status it documents) first, and from the CLI's own words
// second; never from stderr it echoed or from a tool's output.
type AgentSignal struct {
	// Type is AgentSetup, RateLimited, ContextExhausted or AgentError.
	Type    Type
	Message string
	// Fix is the exact fix of an AgentSetup problem.
	Fix string
	// ResetsAt is a usage limit's exact reset from the CLI's structured
	// output (claude's rate_limit_event), zero when it gave none.
	ResetsAt time.Time
}

// agentSignalReport is step 2b of Classify: the failure the agent CLI
// reported, when it reported one.
func agentSignalReport(ev Evidence) (Report, bool) {
	s := ev.AgentSignal
	if s == nil {
		return Report{}, false
	}
	msg := shorten(s.Message)
	switch s.Type {
	case AgentSetup:
		return Report{Type: AgentSetup, Message: msg, Fix: s.Fix,
			BlockedOn: "the agent CLI's setup", Details: "running the agent again changes nothing until this is fixed"}, true
	case RateLimited:
		return Report{Type: RateLimited, Message: "rate limited by the model provider: " + msg,
			BlockedOn: "the model provider's rate limit"}, true
	case ContextExhausted:
		return Report{Type: ContextExhausted, Message: "the agent ran out of context: " + msg,
			BlockedOn: "the model's context window"}, true
	case AgentError:
		return Report{Type: AgentError, Message: msg, Details: lastOutputDetails(ev.AgentOutput),
			BlockedOn: msg}, true
	}
	return Report{}, false
}
