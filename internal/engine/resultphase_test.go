package engine

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/localexec"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// resultAgent writes x.txt and ends with a result object naming phaseID.
func resultAgent(phaseID string) string {
	return `echo x > x.txt; printf '%s\n' '{"phase_id": "` + phaseID + `", "status": "complete", "tasks": {"total": 1, "completed": 1}, "commit_message": "feat(calc): phase ` + phaseID + `"}'`
}

func gitLog(t *testing.T, repo string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", repo, "log", "--all", "--format=%s").CombinedOutput()
	require.NoError(t, err, string(out))
	return string(out)
}

// A result object for another phase ("?") is the agent's confusion: the
// attempt is a parse_error naming it, and its commit message never reaches
// git.
func TestResultForAnotherPhaseIsAParseError(t *testing.T) {
	t.Parallel()
	res, repo, _ := runPlan(t, onePhase, resultAgent("?"))
	require.Equal(t, state.RunHalted, res.Status, res.Reason)
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.NotEmpty(t, p.Attempts)
	rep := p.Attempts[0].Error
	require.NotNil(t, rep)
	require.Equal(t, failreport.ParseError, rep.Type)
	require.Contains(t, rep.Message, `phase_id "?"`)
	require.NotContains(t, gitLog(t, repo), "phase ?")
}

// A result object naming the phase as the plan writes it or as its key is
// the phase's: its commit message is taken.
func TestResultForThisPhaseIsTaken(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"1", "Phase 1", ""} {
		res, repo, _ := runPlan(t, onePhase, resultAgent(id))
		require.Equal(t, state.RunComplete, res.Status, res.Reason)
		require.Contains(t, gitLog(t, repo), strings.TrimSpace("feat(calc): phase "+id))
	}
}

// With several agents the RUN STARTED line names them all, in --agent order.
func TestRunStartedNamesEveryAgent(t *testing.T) {
	t.Parallel()
	_, _, sink := runPlanWith(t, onePhase, "echo x > x.txt", func(c *Config) {
		c.Agents = append(c.Agents, agent.Agent{Name: "other", Shell: "true"})
	})
	sink.mu.Lock()
	defer sink.mu.Unlock()
	var line string
	for _, e := range sink.list {
		if e.Kind == event.RunStarted {
			line = e.Line
		}
	}
	require.Contains(t, line, ", agents script, other")
}

func TestForPhase(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"2a", "2-A", "Phase 2-A", "2A", " 2a ", ""} {
		require.True(t, localexec.ForPhase(s, "2a"), "%q names phase 2a", s)
	}
	for _, s := range []string{"?", "2", "2b", "3", "phase ?"} {
		require.False(t, localexec.ForPhase(s, "2a"), "%q is another phase", s)
	}
	require.True(t, localexec.ForPhase("0.5", "0.5"))
	require.False(t, localexec.ForPhase("05", "0.5"))
}
