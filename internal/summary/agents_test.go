package summary

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/state"
)

func TestDoneBySaysWhoDidTheWork(t *testing.T) {
	t.Parallel()
	limited := &failreport.Report{Type: failreport.RateLimited}
	p := &state.Phase{PhaseID: "1", DisplayID: "1", PhaseName: "Core", Status: state.PhaseComplete,
		Attempts: []state.Attempt{
			{Number: 1, Agent: "claude", Outcome: state.OutcomeFailed, Error: limited},
			{Number: 1, Agent: "codex", Outcome: state.OutcomeComplete},
		}}
	require.Equal(t, "codex (after claude: rate_limited)", doneBy(p))
	out := Render(Input{Run: &state.Run{Status: state.RunComplete}, Phases: []*state.Phase{p}}, 80)
	require.Contains(t, out, "Done by: codex (after claude: rate_limited)")

	p.Attempts = p.Attempts[1:]
	require.Empty(t, doneBy(p), "one agent: nothing to say")
}
