package agenttest

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/autobuild-sh/autobuild/internal/agenttest/mockapi"
)

// MockModel is the model name the OpenAI-compatible CLIs are given.
const MockModel = "mock-model"

// OpenAIEnv is Env for a CLI (qwen, opencode, pi) that srv, an OpenAI
// Chat Completions mock, serves: a fresh HOME holding the CLI's settings
// with a provider at srv, a dummy key (unless opts.NoAuth), and its
// telemetry and update checks off.
func OpenAIEnv(t testing.TB, srv *mockapi.Server, cli string, opts Options) []string {
	t.Helper()
	home := t.TempDir()
	env := baseEnv(t, home)
	base := srv.URL() + "/v1"
	switch cli {
	case "qwen":
		auth := ""
		if !opts.NoAuth {
			auth = `"security": {"auth": {"selectedType": "openai"}},
  `
			env = append(env, "OPENAI_API_KEY=dummy")
		}
		// qwen retries a 429 ten times from 60 s by default.
		retries := ""
		if !opts.DefaultRetries {
			retries = `, "generationConfig": {"maxRetries": 0, "retryInitialDelayMs": 100, "retryMaxDelayMs": 200}`
		}
		writeFile(t, filepath.Join(home, ".qwen", "settings.json"), `{
  `+auth+`"model": {"name": "`+MockModel+`"`+retries+`},
  "general": {"disableAutoUpdate": true, "disableUpdateNag": true},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false}
}
`)
		env = append(env, "OPENAI_BASE_URL="+base, "OPENAI_MODEL="+MockModel)
	case "opencode":
		writeFile(t, filepath.Join(home, ".config", "opencode", "opencode.json"), fmt.Sprintf(`{
  "provider": {"mock": {"npm": "@ai-sdk/openai-compatible", "name": "mock",
    "options": {"baseURL": %q, "apiKey": "{env:%s}"},
    "models": {%q: {"name": %q}}}},
  "model": "mock/%s",
  "autoupdate": false,
  "share": "disabled"
}
`, base, MockKeyVar, MockModel, MockModel, MockModel))
		env = append(env, "OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=true")
		if !opts.NoAuth {
			env = append(env, MockKeyVar+"=dummy")
		}
	case "pi":
		writeFile(t, filepath.Join(home, ".pi", "agent", "models.json"), fmt.Sprintf(`{
  "providers": {"mock": {"baseUrl": %q, "api": "openai-completions", "apiKey": %q,
    "models": [{"id": %q, "name": %q, "reasoning": false, "input": ["text"], "contextWindow": 128000, "maxTokens": 8192,
      "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0}}]}}
}
`, base, MockKeyVar, MockModel, MockModel))
		env = append(env, "PI_OFFLINE=1")
		if !opts.NoAuth {
			env = append(env, MockKeyVar+"=dummy")
		}
	case "copilot":
		// Its BYOK provider: no GitHub login, and offline (no telemetry,
		// no update, no GitHub MCP server).
		env = append(env, "COPILOT_PROVIDER_BASE_URL="+base, "COPILOT_PROVIDER_TYPE=openai", "COPILOT_MODEL="+MockModel,
			"COPILOT_OFFLINE=true", "COPILOT_AUTO_UPDATE=false")
		if !opts.NoAuth {
			env = append(env, "COPILOT_PROVIDER_API_KEY=dummy")
		}
	default:
		t.Fatalf("agenttest: no OpenAI-compatible settings for %s", cli)
	}
	return env
}
