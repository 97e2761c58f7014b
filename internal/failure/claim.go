package failure

import "fmt"

// zeroExitWithoutChange reports whether the agent ran, exited 0 without a
// result object and changed no file. A zero exit is the agent's claim that
// the phase is done; with nothing changed, a failing gate disagrees with
// the claim, not with any work (verification_mismatch). An agent that
// changed files keeps the gate's own type, which says what is wrong with
// that work.
func zeroExitWithoutChange(ev Evidence) bool {
	return ev.AgentRan && ev.AgentExitCode == 0 && ev.ResultStatus == "" && len(ev.FilesChanged) == 0
}

// zeroExitDetails explains a zero exit that changed nothing.
func zeroExitDetails(g *GateEvidence) string {
	return fmt.Sprintf("the agent exited 0, claiming the phase done, but changed no file; the engine's own run of `%s` failed (exit %d)", g.Command, g.ExitCode)
}
