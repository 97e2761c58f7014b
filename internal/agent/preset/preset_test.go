package preset

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A default of the preset's environment yields to the user's own value;
// the rest is always added.
func TestEnvironmentDefaultsYieldToTheUser(t *testing.T) {
	t.Parallel()
	p, ok := Named("claude")
	require.True(t, ok)
	none := func(string) string { return "" }
	require.Equal(t, []string{"DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_MAX_RETRIES=2"}, p.Environment(none))
	set := func(k string) string {
		if k == "CLAUDE_CODE_MAX_RETRIES" {
			return "7"
		}
		return ""
	}
	require.Equal(t, []string{"DISABLE_AUTOUPDATER=1"}, p.Environment(set))
}

// A caller's change to a row it got never reaches the table.
func TestRowsAreCopies(t *testing.T) {
	t.Parallel()
	p, _ := Named("codex")
	p.Args[0] = "changed"
	p.ACPInstall.Command = "changed"
	p.Install.Markers[0] = "changed"
	q, _ := Named("codex")
	require.Equal(t, "codex", q.Args[0])
	require.Equal(t, "npm install -g @zed-industries/codex-acp", q.ACPInstall.Command)
	require.Equal(t, "@openai/codex", q.Install.Markers[0])
}

func TestLookups(t *testing.T) {
	t.Parallel()
	require.Equal(t, "Edit", Verb("MultiEdit"))
	require.Equal(t, "Bash", Verb("run_shell_command"))
	require.Empty(t, Verb("frobnicate"))
	p, ok := OfACPProgram([]string{"/usr/local/bin/claude-code-acp"})
	require.True(t, ok)
	require.Equal(t, "claude", p.Name)
	_, ok = OfACPProgram([]string{"goose", "acp"})
	require.False(t, ok)
	require.Equal(t, []string{"claude", "codex", "copilot", "gemini", "opencode", "qwen"}, ACPNames())
	aider, _ := Named("aider")
	require.Equal(t, "pipx reinstall aider-chat (or: pip install --force-reinstall aider-chat)", aider.Install.Repair())
	qwen, _ := Named("qwen")
	require.True(t, qwen.ACPOnly())
	require.Equal(t, qwen.Install, qwen.ACPProgram())
	require.Equal(t, "npm install -g @qwen-code/qwen-code", qwen.Install.Repair())
}
