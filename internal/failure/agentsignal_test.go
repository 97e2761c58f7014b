package failure

import (
	"testing"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/stretchr/testify/require"
)

// The failure a preset CLI reported about itself decides the type, before
// anything read from text; agent_setup names its fix and is not retried.
func TestClassifyAgentSignal(t *testing.T) {
	t.Parallel()
	c, err := NewClassifier(nil)
	require.NoError(t, err)
	tests := []struct {
		name string
		ev   Evidence
		want failreport.Type
	}{
		{"setup", Evidence{AgentExitCode: 1, ResultRequired: true, AgentOutput: "the prompt said: context window",
			AgentSignal: &AgentSignal{Type: failreport.AgentSetup, Message: "claude is not logged in", Fix: "log in"}}, failreport.AgentSetup},
		{"rate", Evidence{AgentExitCode: 1, ResultRequired: true,
			AgentSignal: &AgentSignal{Type: failreport.RateLimited, Message: "API error 429"}}, failreport.RateLimited},
		{"context", Evidence{AgentExitCode: 1, ResultRequired: true,
			AgentSignal: &AgentSignal{Type: failreport.ContextExhausted, Message: "prompt is too long"}}, failreport.ContextExhausted},
		{"agent error", Evidence{AgentExitCode: 1, ResultRequired: true,
			AgentSignal: &AgentSignal{Type: failreport.AgentError, Message: "gemini: unknown"}}, failreport.AgentError},
		// An aborted agent (exit -1 after autobuild stopped it) too.
		{"aborted", Evidence{AgentExitCode: -1, ResultRequired: true,
			AgentSignal: &AgentSignal{Type: failreport.AgentSetup, Message: "claude was refused", Fix: "check the key"}}, failreport.AgentSetup},
		// A timeout still wins: the attempt ran out of time first.
		{"timeout first", Evidence{TimedOut: true, AgentExitCode: -1,
			AgentSignal: &AgentSignal{Type: failreport.RateLimited, Message: "429"}}, failreport.Timeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := c.Classify(tt.ev)
			require.Equal(t, tt.want, r.Type, "%+v", r)
			if tt.want == failreport.AgentSetup {
				require.False(t, r.Retryable)
				require.Equal(t, tt.ev.AgentSignal.Fix, r.Fix)
				require.Equal(t, tt.ev.AgentSignal.Fix, r.SuggestedActions[0], "the fix comes first")
			}
		})
	}
}

// A preset agent that exited non-zero without a result object is judged by
// its output, not called parse_error: the missing result is a symptom.
func TestClassifyNonZeroExitWithoutResultIsNotParseError(t *testing.T) {
	t.Parallel()
	c, err := NewClassifier(nil)
	require.NoError(t, err)
	r := c.Classify(Evidence{AgentExitCode: 1, ResultRequired: true, AgentOutput: "Error: something broke"})
	require.Equal(t, failreport.AgentError, r.Type)
	require.Contains(t, r.Message, "exited with status 1")
	r = c.Classify(Evidence{AgentExitCode: 0, ResultRequired: true, AgentOutput: "done"})
	require.Equal(t, failreport.ParseError, r.Type, "exit 0 without a result is still a parse_error")
}
