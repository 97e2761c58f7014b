// Package adapters holds an adapter per agent CLI: what autobuild knows
// about running one beyond its row in the preset table (package preset):
// its login check, how it continues a session, and a parser for its output
// (claude.go, codex.go, gemini.go, aider.go, pi.go), or, for an agent run
// through the Agent Client Protocol, the client that speaks it (acp*.go).
// Preflight checks the resolved agents with them before a run.
package adapters

import (
	"strings"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// byPreset are the adapters of the presets with a command line of their
// own (a row of package preset with Args), by name; the presets that run
// only through ACP have their login check in acpChecks.
var byPreset = map[string]agent.Adapter{
	"claude": claudeAdapter{},
	"codex":  codexAdapter{},
	"gemini": geminiAdapter{},
	"aider":  aiderAdapter{},
	"pi":     piAdapter{},
}

// For returns the adapter of a resolved agent, or nil for a plain command
// or the simulated agent.
func For(a agent.Agent) agent.Adapter {
	if a.ACP {
		return ACPAdapterFor(a)
	}
	if a.Preset == "" {
		return nil
	}
	return byPreset[a.Preset]
}

// promptLines is the set of a prompt's non-blank lines, so a parser can
// tell an echoed prompt from what the CLI says.
type promptLines map[string]bool

func newPromptLines(prompt string) promptLines {
	set := promptLines{}
	for _, l := range strings.Split(prompt, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			set[l] = true
		}
	}
	return set
}

// echoed reports whether line is a line of the prompt.
func (p promptLines) echoed(line string) bool {
	l := strings.TrimSpace(line)
	return l != "" && p[l]
}

// counted is u, or nil when it counts no tokens and no cost: an API that
// refused the first request reports zeros, which are not worth showing.
func counted(u *state.Usage) *state.Usage {
	if u == nil || (u.InputTokens == 0 && u.OutputTokens == 0 && u.CacheReadTokens == 0 && u.CacheWriteTokens == 0 && u.CostUSD == 0) {
		return nil
	}
	return u
}
