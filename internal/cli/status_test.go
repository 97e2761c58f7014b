package cli

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/state"
)

// The resume command status prints names the run's plan and the agents
// --agent can take back (presets, sim), not a command-line agent's program.
func TestResumeCommandFromRunJSON(t *testing.T) {
	t.Parallel()
	got := resumeCommand(&state.Run{PlanPath: "docs/my plan.md", Agents: []string{"claude", "my-agent.sh", "sim"}})
	require.True(t, strings.HasSuffix(got, " 'docs/my plan.md' --agent claude --agent sim --resume"), got)
	require.NotContains(t, got, "my-agent.sh")
}
