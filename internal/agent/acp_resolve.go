package agent

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mattn/go-shellwords"

	"github.com/autobuild-sh/autobuild/internal/agent/preset"
)

// ACPPrefix starts an --agent value that runs any ACP agent:
// `--agent 'acp:opencode acp'`.
const ACPPrefix = "acp:"

// resolveACP resolves `acp:CMD ARGS`.
func resolveACP(spec string) (Agent, error) {
	rest := strings.TrimSpace(spec[len(ACPPrefix):])
	words, err := shellwords.Parse(rest)
	if err != nil {
		return Agent{}, fmt.Errorf("%s%s: %w", ACPPrefix, rest, err)
	}
	if len(words) == 0 {
		return Agent{}, errors.New("acp: needs the agent's command line: --agent 'acp:gemini --acp'")
	}
	name := filepath.Base(words[0])
	if p, ok := preset.OfACPProgram(words); ok {
		name = p.Name
	}
	return Agent{Name: name, Args: words, ACP: true, RequiresResult: true, Spec: ACPPrefix + shellJoin(words)}, nil
}

// ViaACP switches a preset to its ACP command line (`[agents.gemini] acp =
// true`); an error for a preset without one.
func (a Agent) ViaACP() (Agent, error) {
	if a.ACP {
		return a, nil
	}
	p, ok := preset.Named(a.Preset)
	if !ok || p.ACP == nil {
		return a, fmt.Errorf("%s has no ACP mode: acp = true works for %s", a.Name, strings.Join(preset.ACPNames(), ", "))
	}
	a.ACP = true
	a.Args = append(slices.Clone(p.ACP), a.Extra...)
	a.Env = nil
	return a, nil
}

// presetArgs is the preset's own command line: its ACP one when it runs
// through ACP.
func presetArgs(a Agent) []string {
	p, ok := preset.Named(a.Preset)
	if !ok {
		return nil
	}
	if a.ACP && p.ACP != nil {
		return p.ACP
	}
	return p.Args
}

// LoadsSession reports whether a continues a session with session/load
// (an ACP agent: whether it can is known once it answers initialize; a
// session is kept only when it advertised it).
func LoadsSession(a Agent) bool { return a.ACP }
