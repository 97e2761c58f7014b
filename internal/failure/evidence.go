package failure

import "time"

// Evidence is everything known about a failed attempt; Classify turns it
// into a Report. The engine fills it from the agent's run, its result object
// and the engine's own gate run.
type Evidence struct {
	Attempt  int
	Duration time.Duration
	// TimedOut is set when the attempt ran past its time limit;
	// IdleTimedOut when it produced no output for the idle limit.
	TimedOut     bool
	IdleTimedOut bool
	// AgentExitCode is the agent's exit status (0 when it succeeded).
	AgentExitCode int
	// AgentNotFound is set when the agent's executable could not be started
	// (exec: not found) or the shell running it exited 127.
	AgentNotFound bool
	// AgentRan is set when the agent ran and exited by itself: only then
	// is AgentExitCode 0 the agent's claim of success.
	AgentRan     bool
	AgentCommand string
	// AgentOutput is the tail of the agent's output.
	AgentOutput string
	// ResultRequired is set for preset agents, which must print a result
	// object; a plain command may omit it.
	ResultRequired bool
	ResultFound    bool
	ResultParseErr string
	// ResultOtherPhase is the phase_id of a result object that names
	// another phase than the attempt's ("?", "3" in phase 2): the agent is
	// confused about its task. Empty when the result names this phase or
	// none.
	ResultOtherPhase string
	// ResultStatus is the result object's status: "complete", "failed" or "".
	ResultStatus       string
	TasksTotal         int
	TasksCompleted     int
	ResultErrorType    string
	ResultErrorMessage string
	// Gate is the first failing gate, nil if none failed or none ran. With
	// TimedOut, it is the gate that was still running when the attempt's
	// time ran out.
	Gate         *GateEvidence
	FilesChanged []string
	// AgentSignal is the failure a preset agent CLI reported about itself
	// in its structured output (or its own words), read by its adapter;
	// nil for plain commands and when it reported none.
	AgentSignal *AgentSignal
	// Worktree is the directory the agent and the gates ran in: paths
	// under it are named relative to it in the report.
	Worktree string
}

// GateEvidence is a quality gate that failed in the engine's own run.
type GateEvidence struct {
	// Kind is build, lint, format, typecheck or test.
	Kind     string
	Command  string
	ExitCode int
	Output   string
	// Declared is set when the user declared the gate (plan or
	// autobuild.toml) rather than autobuild detecting it.
	Declared bool
}
