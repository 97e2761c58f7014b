package adapters

import (
	"slices"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/agent/preset"
)

// ACPAdapter is the adapter of an agent run through ACP: the engine speaks
// the protocol with it (NewACPSession) rather than reading a stream, so
// NewParser only reads its stderr.
type ACPAdapter struct {
	// name is the preset's name, or the program's for `acp:CMD`.
	name  string
	args  []string
	check func(agent.System) []agent.SetupProblem
	fixes fixes
}

// ACPAdapterFor returns the ACP adapter of a, nil when a does not run
// through ACP.
func ACPAdapterFor(a agent.Agent) *ACPAdapter {
	if !a.ACP {
		return nil
	}
	ad := &ACPAdapter{name: a.Name, args: a.Args}
	if c, ok := acpChecks[a.Preset]; ok {
		ad.check, ad.fixes = c.check, c.fixes
	} else if p, ok := preset.OfACPProgram(a.Args); ok {
		// `acp:gemini --acp` is gemini: its login check applies.
		ad.check, ad.fixes = acpChecks[p.Name].check, acpChecks[p.Name].fixes
	}
	return ad
}

// Name is the program to find on PATH.
func (a *ACPAdapter) Name() string {
	if len(a.args) > 0 {
		return a.args[0]
	}
	return a.name
}

// ResumeArgs is the same command line: the session is loaded over the
// protocol (session/load), when the agent advertises it.
func (a *ACPAdapter) ResumeArgs(args []string, session string) []string {
	if session == "" {
		return nil
	}
	return slices.Clone(args)
}

// Check is the login check of the CLI behind the agent, when known.
func (a *ACPAdapter) Check(sys agent.System) []agent.SetupProblem {
	if a.check == nil {
		return nil
	}
	return a.check(sys)
}

// NewParser reads the agent's stderr; its stdout is the protocol.
func (a *ACPAdapter) NewParser(prompt, dir string) agent.Parser { return acpStderr{} }

// Session returns the conversation of one attempt with the agent.
func (a *ACPAdapter) Session(cfg ACPConfig) *ACPSession {
	cfg.Agent, cfg.Fixes = a.name, a.fixes
	return NewACPSession(cfg)
}

// acpStderr is the Parser of an ACP agent: unused by the engine, which
// speaks the protocol; it shows stderr lines.
type acpStderr struct{}

func (acpStderr) Stdout(string) []agent.Note { return nil }
func (acpStderr) Stderr(line string) []agent.Note {
	if l := cleanLine(line); l != "" {
		return []agent.Note{{Text: l}}
	}
	return nil
}
func (acpStderr) Finish(int) agent.Outcome { return agent.Outcome{} }

// claudeLoginCheck is claude's check without the root one: claude-code-acp
// asks for permissions instead of skipping them.
func claudeLoginCheck(sys agent.System) []agent.SetupProblem {
	var out []agent.SetupProblem
	for _, p := range (claudeAdapter{}).Check(sys) {
		if !strings.Contains(p.Problem, "root") {
			out = append(out, p)
		}
	}
	return out
}
