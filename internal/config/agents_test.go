package config

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLoadAgentTables(t *testing.T) {
	t.Parallel()
	cfg, err := Load(write(t, "agent = \"claude\"\n\n[agents.claude]\nargs = [\"--model\", \"opus\"]\nenv = { IS_SANDBOX = \"1\", A = \"x y\" }\n\n[agents.Codex]\nargs = [\"-m\", \"gpt-5\"]\n"))
	require.NoError(t, err)
	require.Equal(t, map[string]AgentConfig{
		"claude": {Args: []string{"--model", "opus"}, Env: []string{"A=x y", "IS_SANDBOX=1"}},
		"codex":  {Args: []string{"-m", "gpt-5"}},
	}, cfg.Agents)
}

func TestLoadAgentTableErrors(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		"[agents.clod]\nargs = [\"x\"]\n":              "agents.clod: is not a preset",
		"[agents.claude]\nmodel = \"opus\"\n":          `unknown key "agents.claude.model" (known keys: args, env, acp)`,
		"[agents.claude]\nargs = \"--model opus\"\n":   "agents.claude.args",
		"[agents.claude]\nenv = { \"A B\" = \"1\" }\n": `"A B" is not an environment variable name`,
	} {
		_, err := Load(write(t, text))
		require.Error(t, err, text)
		require.Contains(t, err.Error(), want, text)
	}
}
