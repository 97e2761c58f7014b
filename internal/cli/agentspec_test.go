package cli

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/config"
)

func TestResolveAgentWithACPTables(t *testing.T) {
	tables := map[string]config.AgentConfig{
		"gemini": {ACP: true, Args: []string{"--debug"}},
		"goose":  {ACP: true, Args: []string{"acp"}, Env: []string{"GOOSE_MODE=auto"}},
	}
	a, err := resolveAgent("gemini -m flash", tables)
	require.NoError(t, err)
	require.True(t, a.ACP)
	require.Equal(t, []string{"gemini", "--acp", "--debug", "-m", "flash"}, a.Args)
	require.Equal(t, "gemini -m flash", a.Spec)

	a, err = resolveAgent("goose --with-builtin developer", tables)
	require.NoError(t, err)
	require.True(t, a.ACP)
	require.Equal(t, "goose", a.Name)
	require.Equal(t, []string{"goose", "acp", "--with-builtin", "developer"}, a.Args)
	require.Equal(t, []string{"GOOSE_MODE=auto"}, a.Env)
	require.Equal(t, "goose --with-builtin developer", a.Spec, "a resume applies the table again")

	a, err = resolveAgent("gemini", nil)
	require.NoError(t, err)
	require.False(t, a.ACP, "without the table gemini is its stream-json preset")
}
