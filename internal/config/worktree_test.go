package config

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/wtenv"
)

func TestWorktreeTable(t *testing.T) {
	t.Parallel()
	cfg, err := Load(write(t, `[worktree]
copy = [".env", "node_modules", ".venv"]
setup = " npm ci --prefer-offline "
teardown = "docker compose down"
ports = 4
port_base = 50000
`))
	require.NoError(t, err)
	require.Equal(t, wtenv.Config{Copy: []string{".env", "node_modules", ".venv"}, Setup: "npm ci --prefer-offline",
		Teardown: "docker compose down", Ports: 4, PortBase: 50000}, cfg.Worktree)
}

func TestWorktreeTableErrors(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		"[worktree]\ncopy = \".env\"\n":      `autobuild.toml:2: worktree.copy: must be a list of quoted patterns`,
		"[worktree]\ncopy = [\"\"]\n":        `worktree.copy: "" is not a pattern`,
		"[worktree]\nports = 5000\n":         "worktree.ports: must be from 1 to 1000",
		"[worktree]\nport_base = 80\n":       "worktree.port_base: must be a port from 1024",
		"[worktree]\nsetpu = \"npm ci\"\n":   `unknown key "worktree.setpu" (known keys: copy, setup, teardown, ports, port_base)`,
		"[worktree]\nsetup = [\"npm ci\"]\n": "worktree.setup: must be a quoted command line",
	} {
		_, err := Load(write(t, text))
		require.Error(t, err, text)
		require.Contains(t, err.Error(), want, text)
	}
}
