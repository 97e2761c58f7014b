package agent

import (
	"strconv"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// Environment variables the engine sets for an agent (docs/agents.md).
const (
	EnvPhaseID     = "AUTOBUILD_PHASE_ID"
	EnvAttempt     = "AUTOBUILD_ATTEMPT"
	EnvMaxAttempts = "AUTOBUILD_MAX_ATTEMPTS"
	EnvPlan        = "AUTOBUILD_PLAN"
	EnvPromptFile  = "AUTOBUILD_PROMPT_FILE"
	// EnvSimScenario names the simulated agent's scenario file.
	EnvSimScenario = "AUTOBUILD_SIM_SCENARIO"
	// EnvSimSpeed, when set to a number above 0, divides every delay and
	// sleep of the simulated agent ("10" plays ten times faster). It is read
	// from the inherited environment: tests and impatient demos set it.
	EnvSimSpeed = "AUTOBUILD_SIM_SPEED"
)

// EnvAgentRun is the n-th run (1-based) of the phase's agent in this run of
// autobuild: the attempt number, except that the repeat of a rate-limited
// attempt (which keeps its number) is a run of its own. The simulated
// agent plays its scenario entries by it, so a limited entry is followed by
// the next one.
const EnvAgentRun = "AUTOBUILD_AGENT_RUN"

// EnvInput is what an attempt's environment is made of.
type EnvInput struct {
	PhaseID     phaseid.ID
	Attempt     int
	MaxAttempts int
	// PlanPath should be absolute: the agent runs in a worktree.
	PlanPath    string
	PromptFile  string
	SimScenario string
	// AgentRun is the n-th run of the phase's agent in this run of
	// autobuild (EnvAgentRun); 0 leaves it out.
	AgentRun int
}

// Env returns the AUTOBUILD_* variables of an attempt as KEY=value entries.
// The caller appends them to the inherited environment.
func Env(in EnvInput) []string {
	env := []string{
		EnvPhaseID + "=" + string(in.PhaseID),
		EnvAttempt + "=" + strconv.Itoa(in.Attempt),
		EnvMaxAttempts + "=" + strconv.Itoa(in.MaxAttempts),
		EnvPlan + "=" + in.PlanPath,
		EnvPromptFile + "=" + in.PromptFile,
	}
	if in.AgentRun > 0 {
		env = append(env, EnvAgentRun+"="+strconv.Itoa(in.AgentRun))
	}
	if in.SimScenario != "" {
		env = append(env, EnvSimScenario+"="+in.SimScenario)
	}
	return env
}
