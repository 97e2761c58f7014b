package summary

import (
	"slices"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/state"
)

// doneBy says who did a completed phase's work when more than one agent
// took part in it (a limit moved it, or a retry went to another agent):
// "codex (after claude: rate_limited)". It is "" for a phase one agent did.
func doneBy(p *state.Phase) string {
	var names []string
	winner := ""
	var before []string
	for _, a := range p.Attempts {
		if a.Agent == "" {
			continue
		}
		if !slices.Contains(names, a.Agent) {
			names = append(names, a.Agent)
		}
		if a.Outcome == state.OutcomeComplete {
			winner = a.Agent
		}
	}
	if len(names) < 2 || winner == "" {
		return ""
	}
	for _, a := range p.Attempts {
		if a.Agent != winner && a.Outcome == state.OutcomeFailed && a.Error != nil {
			item := a.Agent + ": " + string(a.Error.Type)
			if !slices.Contains(before, item) {
				before = append(before, item)
			}
		}
	}
	if len(before) == 0 {
		return winner
	}
	return winner + " (after " + strings.Join(before, ", ") + ")"
}
