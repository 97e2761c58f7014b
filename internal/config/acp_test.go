package config

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLoadACPAgents(t *testing.T) {
	t.Parallel()
	root := write(t, `
[agents.gemini]
acp = true

[agents.goose]
acp = true
args = ["acp"]

[agents.qwen]
env = { OPENAI_MODEL = "qwen3-coder" }
`)
	cfg, err := Load(root)
	require.NoError(t, err)
	require.Equal(t, AgentConfig{ACP: true}, cfg.Agents["gemini"])
	require.Equal(t, AgentConfig{ACP: true, Args: []string{"acp"}}, cfg.Agents["goose"])
	require.Equal(t, []string{"OPENAI_MODEL=qwen3-coder"}, cfg.Agents["qwen"].Env)

	for text, want := range map[string]string{
		"[agents.goose]\nargs = [\"acp\"]\n": "is not a preset",
		"[agents.aider]\nacp = true\n":       "has no ACP mode",
		"[agents.gemini]\nacpp = true\n":     "args, env, acp",
	} {
		_, err := Load(write(t, text))
		require.ErrorContains(t, err, want, text)
	}
}
