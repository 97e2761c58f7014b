package cli

import (
	"slices"
	"strings"

	"github.com/mattn/go-shellwords"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/agent/preset"
	"github.com/autobuild-sh/autobuild/internal/config"
)

// resolveAgent resolves one --agent value with autobuild.toml's
// [agents.NAME] tables: a preset gets the table's arguments and
// environment (and its ACP command line with acp = true); a name that is
// no preset, with acp = true, is an ACP agent of that program
// (`[agents.goose] acp = true, args = ["acp"]`: --agent goose runs
// `goose acp` through ACP). The agent's Spec stays the value given, so a
// resume applies the table again.
func resolveAgent(spec string, tables map[string]config.AgentConfig) (agent.Agent, error) {
	if words, err := shellwords.Parse(spec); err == nil && len(words) > 0 {
		name := strings.ToLower(words[0])
		if ac, ok := tables[name]; ok && ac.ACP && !slices.Contains(preset.Names(), name) {
			line := append(append([]string{words[0]}, ac.Args...), words[1:]...)
			a, err := agent.Resolve(agent.ACPPrefix+shellQuote(line), selfCommand())
			if err != nil {
				return a, err
			}
			a.Name, a.Spec, a.Env = name, strings.TrimSpace(spec), ac.Env
			return a, nil
		}
	}
	a, err := agent.Resolve(spec, selfCommand())
	if err != nil {
		return a, err
	}
	if ac, ok := tables[a.Preset]; ok {
		if ac.ACP {
			if a, err = a.ViaACP(); err != nil {
				return a, err
			}
		}
		a = a.WithConfig(ac.Args, ac.Env)
	}
	return a, nil
}

// shellQuote quotes words for a command line that splits back into them.
func shellQuote(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}
