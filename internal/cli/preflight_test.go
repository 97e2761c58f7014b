package cli

import (
	"errors"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/exitcode"
)

// fakeEnv is a machine with the given programs on PATH, the given
// environment, and no files.
func fakeEnv(uid int, env map[string]string, programs ...string) *preflightEnv {
	return &preflightEnv{
		system: func(agent.Agent) agent.System {
			return agent.System{Getenv: func(k string) string { return env[k] }, Home: "/home/u", UID: uid,
				Exists: func(string) bool { return false }, ReadFile: func(string) ([]byte, error) { return nil, errors.New("no file") }}
		},
		lookPath: func(name string) (string, error) {
			for _, p := range programs {
				if p == name {
					return "/usr/bin/" + name, nil
				}
			}
			return "", exec.ErrNotFound
		},
	}
}

func resolveAll(t *testing.T, specs ...string) []agent.Agent {
	t.Helper()
	var out []agent.Agent
	for _, s := range specs {
		a, err := agent.Resolve(s, []string{"/bin/autobuild", "sim-agent"})
		require.NoError(t, err)
		out = append(out, a)
	}
	return out
}

func TestPreflightExitCodes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		specs []string
		env   *preflightEnv
		code  int // 0: no error
		want  string
	}{
		{"typo", []string{"clod"}, fakeEnv(1000, nil, "claude"), exitcode.Usage, `unknown agent "clod"`},
		{"a program on PATH", []string{"my-agent"}, fakeEnv(1000, nil, "my-agent"), 0, ""},
		{"sim", []string{"sim"}, fakeEnv(1000, nil), 0, ""},
		{"not installed", []string{"codex"}, fakeEnv(1000, map[string]string{"CODEX_API_KEY": "k"}), exitcode.Refused, "npm install -g @openai/codex"},
		{"logged in", []string{"claude"}, fakeEnv(1000, map[string]string{"ANTHROPIC_API_KEY": "k"}, "claude"), 0, ""},
		{"root", []string{"claude"}, fakeEnv(0, map[string]string{"ANTHROPIC_API_KEY": "k"}, "claude"), exitcode.Refused, "IS_SANDBOX=1"},
		{"root in a sandbox", []string{"claude"}, fakeEnv(0, map[string]string{"ANTHROPIC_API_KEY": "k", "IS_SANDBOX": "1"}, "claude"), 0, ""},
		{"no gemini auth", []string{"gemini"}, fakeEnv(1000, nil, "gemini"), exitcode.Refused, "GEMINI_API_KEY"},
		{"gemini key", []string{"gemini"}, fakeEnv(1000, map[string]string{"GEMINI_API_KEY": "k"}, "gemini"), 0, ""},
		{"gemini gateway", []string{"gemini"}, fakeEnv(1000, map[string]string{"GEMINI_API_KEY": "k", "GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:1"}, "gemini"),
			exitcode.Refused, `"selectedType": "gemini-api-key"`},
		{"retry agent checked too", []string{"sim", "codex"}, fakeEnv(1000, nil, "codex"), exitcode.Refused, "codex login"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := preflight(resolveAll(t, tt.specs...), "/repo", tt.env)
			if tt.code == 0 {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			require.Equal(t, tt.code, exitcode.Of(err))
			require.Contains(t, err.Error(), tt.want)
		})
	}
}
