package adapters

import (
	"errors"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
)

// sys is a machine with the given environment and files (path → content).
func sys(uid int, env map[string]string, files map[string]string) agent.System {
	return agent.System{Getenv: func(k string) string { return env[k] }, Home: "/home/u", Dir: "/repo", UID: uid,
		Exists: func(p string) bool { _, ok := files[p]; return ok },
		ReadFile: func(p string) ([]byte, error) {
			if c, ok := files[p]; ok {
				return []byte(c), nil
			}
			return nil, errors.New("no such file")
		}}
}

const codexProvider = "model_provider = \"local\"\n\n[model_providers.local]\nbase_url = \"http://127.0.0.1:1/v1\"\nenv_key = \"MY_KEY\"\n"

func TestChecks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		ad    agent.Adapter
		sys   agent.System
		wants []string // one substring per problem; none for a clean check
	}{
		{"claude key", claudeAdapter{}, sys(1000, map[string]string{"ANTHROPIC_API_KEY": "k"}, nil), nil},
		{"claude login file", claudeAdapter{}, sys(1000, nil, map[string]string{"/home/u/.claude/.credentials.json": "{}"}), nil},
		{"claude config dir", claudeAdapter{}, sys(1000, map[string]string{"CLAUDE_CONFIG_DIR": "/c"}, map[string]string{"/c/.credentials.json": "{}"}), nil},
		{"claude key helper", claudeAdapter{}, sys(1000, nil, map[string]string{"/home/u/.claude/settings.json": `{"apiKeyHelper": "pass"}`}), nil},
		{"claude nothing", claudeAdapter{}, sys(1000, nil, nil), []string{"not logged in"}},
		{"claude root", claudeAdapter{}, sys(0, map[string]string{"ANTHROPIC_API_KEY": "k"}, nil), []string{"IS_SANDBOX=1"}},
		{"claude root sandbox", claudeAdapter{}, sys(0, map[string]string{"ANTHROPIC_API_KEY": "k", "IS_SANDBOX": "1"}, nil), nil},
		{"codex key", codexAdapter{}, sys(1000, map[string]string{"CODEX_API_KEY": "k"}, nil), nil},
		{"codex login", codexAdapter{}, sys(1000, nil, map[string]string{"/home/u/.codex/auth.json": "{}"}), nil},
		{"codex home", codexAdapter{}, sys(1000, map[string]string{"CODEX_HOME": "/ch"}, map[string]string{"/ch/auth.json": "{}"}), nil},
		{"codex own provider", codexAdapter{}, sys(1000, map[string]string{"MY_KEY": "k"}, map[string]string{"/home/u/.codex/config.toml": codexProvider}), nil},
		{"codex own provider, no key", codexAdapter{}, sys(1000, nil, map[string]string{"/home/u/.codex/config.toml": codexProvider}), []string{"MY_KEY, which is not set"}},
		{"codex nothing", codexAdapter{}, sys(1000, nil, nil), []string{"codex login"}},
		{"gemini key", geminiAdapter{}, sys(1000, map[string]string{"GEMINI_API_KEY": "k"}, nil), nil},
		{"gemini settings", geminiAdapter{}, sys(1000, nil, map[string]string{"/home/u/.gemini/settings.json": `{"security":{"auth":{"selectedType":"oauth-personal"}}}`}), nil},
		{"gemini repo settings", geminiAdapter{}, sys(1000, nil, map[string]string{"/repo/.gemini/settings.json": `{"security":{"auth":{"selectedType":"vertex-ai"}}}`}), nil},
		{"gemini env file", geminiAdapter{}, sys(1000, nil, map[string]string{"/home/u/.gemini/.env": "GEMINI_API_KEY=k\n"}), nil},
		{"gemini gateway", geminiAdapter{}, sys(1000, map[string]string{"GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:1", "GEMINI_API_KEY": "k"}, nil), []string{"gateway"}},
		{"gemini nothing", geminiAdapter{}, sys(1000, nil, nil), []string{"no auth method"}},
		{"aider", aiderAdapter{}, sys(0, nil, nil), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if runtime.GOOS != "linux" && tt.ad.Name() == "claude" && len(tt.wants) > 0 && tt.wants[0] == "not logged in" {
				t.Skip("claude's login lives in the keychain off Linux: not checked")
			}
			got := tt.ad.Check(tt.sys)
			require.Len(t, got, len(tt.wants), "%+v", got)
			for i, w := range tt.wants {
				require.Contains(t, got[i].Problem+" "+got[i].Fix, w)
				require.NotEmpty(t, got[i].Fix)
			}
		})
	}
}
