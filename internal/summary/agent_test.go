package summary

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// A halt on an agent's setup: the fix comes first in the resume steps, and
// the tokens and cost spent so far are shown for the run and each phase.
func TestHaltSummaryAgentSetupAndUsage(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	fix := "check ANTHROPIC_API_KEY (or log in again with `claude` then /login); a key that worked before may have been revoked"
	rep := &failreport.Report{Type: failreport.AgentSetup, Attempt: 1,
		Message:   "claude was refused by its model API: the key or login is not valid (API error 401: Invalid API key · Fix external API key)",
		Details:   "running the agent again changes nothing until this is fixed",
		BlockedOn: "the agent CLI's setup", Fix: fix,
		SuggestedActions: []string{fix, "then resume with --resume"}}
	in := Input{
		Run: &state.Run{Status: state.RunHalted, HaltReason: "Phase 2 failed (agent_setup)", CommitMode: "auto", Branch: "main", Started: t0},
		Phases: []*state.Phase{
			{PhaseID: "1", DisplayID: "1", PhaseName: "Core", Status: state.PhaseComplete, Attempt: 1, MaxAttempts: 2,
				Timestamps: state.Timestamps{DurationSeconds: 95}, Commit: &state.Commit{SHA: "2222222bbbb", Message: "feat(calc): core"},
				Attempts: []state.Attempt{{Number: 1, Usage: &state.Usage{InputTokens: 41200, CacheReadTokens: 180000, OutputTokens: 6300, Turns: 14, CostUSD: 0.61}}}},
			{PhaseID: "2", DisplayID: "2", PhaseName: "Parser", Status: state.PhaseFailed, Attempt: 1, MaxAttempts: 2, Error: rep,
				Attempts: []state.Attempt{{Number: 1, Usage: &state.Usage{Turns: 1}}}},
		},
		StateDir: ".autobuild/", ResumeCommand: "autobuild plan.md --resume", FreshCommand: "autobuild plan.md --fresh --commit=auto",
	}
	out := Render(in, 80)
	golden(t, "halt-agent-setup-80.txt", out)
	require.Contains(t, out, "1. Check ANTHROPIC_API_KEY", "the fix is the first step")
	require.Contains(t, out, "(not retryable)")
}
