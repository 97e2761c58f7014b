package state

// Choice is what a run is started with: its commit mode, its schedule, its
// agents (as the user spelled them) and the simulated agent's scenario.
type Choice struct {
	CommitMode CommitMode
	Schedule   Schedule
	AgentSpecs []string
	Scenario   string
}

// Carry is the one rule for what a run keeps of the run before it, prev
// (nil when there is none): whatever given leaves empty is taken from prev,
// so a resume or a fresh start needs neither --commit nor --agent again.
// The scenario goes with the agents: it is carried only when they are.
// It says whether the agents were carried.
//
// Which choices count as given is the caller's: for a resumed run the
// commit mode and schedule of autobuild.toml are not (a run keeps those it
// was started with), for a new or fresh run they are.
func Carry(prev *Run, given Choice) (Choice, bool) {
	if prev == nil {
		return given, false
	}
	out := given
	if out.CommitMode == "" {
		out.CommitMode = prev.CommitMode
	}
	if out.Schedule == "" {
		out.Schedule = prev.Schedule
	}
	carried := len(out.AgentSpecs) == 0 && len(prev.AgentSpecs) > 0
	if carried {
		out.AgentSpecs = prev.AgentSpecs
		if out.Scenario == "" {
			out.Scenario = prev.Scenario
		}
	}
	return out, carried
}
