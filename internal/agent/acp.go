package agent

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mattn/go-shellwords"
)

// ACPPrefix starts an --agent value that runs any ACP agent:
// `--agent 'acp:opencode acp'`.
const ACPPrefix = "acp:"

// ACPAdapter is the adapter of an agent run through ACP: the engine speaks
// the protocol with it (NewACPSession) rather than reading a stream, so
// NewParser only reads its stderr.
type ACPAdapter struct {
	// name is the preset's name, or the program's for `acp:CMD`.
	name  string
	args  []string
	check func(System) []SetupProblem
	fixes fixes
}

// ACPAdapterFor returns the ACP adapter of a, nil when a does not run
// through ACP.
func ACPAdapterFor(a Agent) *ACPAdapter {
	if !a.ACP {
		return nil
	}
	ad := &ACPAdapter{name: a.Name, args: a.Args}
	if p, ok := acpPresets[a.Preset]; ok {
		ad.check, ad.fixes = p.check, p.fixes
	} else if p, ok := acpPresets[presetOfProgram(a.Args)]; ok {
		// `acp:gemini --acp` is gemini: its login check applies.
		ad.check, ad.fixes = p.check, p.fixes
	}
	return ad
}

// presetOfProgram names the preset whose ACP program args runs, "" for
// none: "gemini", "claude-code-acp" (claude).
func presetOfProgram(args []string) string {
	if len(args) == 0 {
		return ""
	}
	prog := filepath.Base(args[0])
	for name, p := range acpPresets {
		if p.args[0] == prog {
			return name
		}
	}
	return ""
}

// Name is the program to find on PATH.
func (a *ACPAdapter) Name() string {
	if len(a.args) > 0 {
		return a.args[0]
	}
	return a.name
}

// Args is the agent's command line.
func (a *ACPAdapter) Args() []string { return slices.Clone(a.args) }

// Env adds nothing.
func (a *ACPAdapter) Env() []string { return nil }

// Check is the login check of the CLI behind the agent, when known.
func (a *ACPAdapter) Check(sys System) []SetupProblem {
	if a.check == nil {
		return nil
	}
	return a.check(sys)
}

// NewParser reads the agent's stderr; its stdout is the protocol.
func (a *ACPAdapter) NewParser(prompt, dir string) Parser { return acpStderr{} }

// Session returns the conversation of one attempt with the agent.
func (a *ACPAdapter) Session(cfg ACPConfig) *ACPSession {
	cfg.Agent, cfg.Fixes = a.name, a.fixes
	return NewACPSession(cfg)
}

// acpStderr is the Parser of an ACP agent: unused by the engine, which
// speaks the protocol; it shows stderr lines.
type acpStderr struct{}

func (acpStderr) Stdout(string) []Note { return nil }
func (acpStderr) Stderr(line string) []Note {
	if l := cleanLine(line); l != "" {
		return []Note{{Text: l}}
	}
	return nil
}
func (acpStderr) Finish(int) Outcome { return Outcome{} }

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
	if p := presetOfProgram(words); p != "" {
		name = p
	}
	return Agent{Name: name, Args: words, ACP: true, RequiresResult: true, Spec: ACPPrefix + shellJoin(words)}, nil
}

// ViaACP switches a preset to its ACP command line (`[agents.gemini] acp =
// true`); an error for a preset without one.
func (a Agent) ViaACP() (Agent, error) {
	if a.ACP {
		return a, nil
	}
	p, ok := acpPresets[a.Preset]
	if !ok {
		return a, fmt.Errorf("%s has no ACP mode: acp = true works for %s", a.Name, strings.Join(ACPPresets(), ", "))
	}
	a.ACP = true
	a.Args = append(slices.Clone(p.args), a.Extra...)
	a.Env = nil
	return a, nil
}

// ACPPresets are the presets that run through ACP (always, or with acp =
// true), sorted.
func ACPPresets() []string {
	var out []string
	for n := range acpPresets {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// presetArgs is the preset's own command line: its ACP one when it runs
// through ACP.
func presetArgs(a Agent) []string {
	if a.ACP {
		if p, ok := acpPresets[a.Preset]; ok {
			return p.args
		}
	}
	if ad, ok := adapters[a.Preset]; ok {
		return ad.Args()
	}
	return nil
}

// LoadsSession reports whether a continues a session with session/load
// (an ACP agent: whether it can is known once it answers initialize; a
// session is kept only when it advertised it).
func LoadsSession(a Agent) bool { return a.ACP }

// claudeLoginCheck is claude's check without the root one: claude-code-acp
// asks for permissions instead of skipping them.
func claudeLoginCheck(sys System) []SetupProblem {
	var out []SetupProblem
	for _, p := range (claudeAdapter{}).Check(sys) {
		if !strings.Contains(p.Problem, "root") {
			out = append(out, p)
		}
	}
	return out
}
