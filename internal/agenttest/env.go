package agenttest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autobuild-sh/autobuild/internal/agenttest/mockapi"
)

// Options change the environment Env builds.
type Options struct {
	// NoAuth leaves out the API key (and gemini's auth type): the CLI is
	// not logged in. The CLI is still pointed at the mock, so nothing it
	// tries leaves the machine.
	NoAuth bool
	// Sandbox sets IS_SANDBOX=1, which lets claude skip its permission
	// prompts as root.
	Sandbox bool
	// DefaultRetries keeps each CLI's own retries at their defaults (claude
	// and gemini retry a 429 or 5xx for minutes) instead of turning them off.
	DefaultRetries bool
	// Subscription logs claude in with an OAuth token (CLAUDE_CODE_OAUTH_TOKEN)
	// instead of an API key, as a Pro or Max subscription: only then does
	// claude read the unified rate limit's headers as a usage limit.
	Subscription bool
}

// MockKeyVar is the variable codex's mock provider reads its key from.
const MockKeyVar = "MOCKAPI_KEY"

// Env returns a complete environment (not added to the test's own) that
// points the CLI for srv's API at srv and nowhere else: a fresh HOME (so no
// real login, config or endpoint is read), TMPDIR and XDG folders under it,
// a dummy key, the CLI's telemetry, update checks and error reports turned
// off, and (unless opts.DefaultRetries) its own retries turned down to none
// so each case takes seconds.
// PATH holds the CLIs, node, git and the system folders.
func Env(t testing.TB, srv *mockapi.Server, opts Options) []string {
	t.Helper()
	home := t.TempDir()
	env := baseEnv(t, home)
	switch srv.API() {
	case mockapi.Claude:
		env = append(env,
			"ANTHROPIC_BASE_URL="+srv.URL(),
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
			"DISABLE_TELEMETRY=1",
			"DISABLE_AUTOUPDATER=1",
			"DISABLE_ERROR_REPORTING=1",
		)
		if !opts.DefaultRetries {
			// claude retries 401, 429 and 5xx ten times with backoff by default.
			env = append(env, "CLAUDE_CODE_MAX_RETRIES=0")
		}
		switch {
		case opts.NoAuth:
		case opts.Subscription:
			env = append(env, "CLAUDE_CODE_OAUTH_TOKEN=dummy")
		default:
			env = append(env, "ANTHROPIC_API_KEY=dummy")
		}
		if opts.Sandbox {
			env = append(env, "IS_SANDBOX=1")
		}
	case mockapi.Codex:
		codexHome := filepath.Join(home, ".codex")
		writeFile(t, filepath.Join(codexHome, "config.toml"), codexConfig(srv.URL(), !opts.DefaultRetries))
		env = append(env, "CODEX_HOME="+codexHome)
		if !opts.NoAuth {
			env = append(env, MockKeyVar+"=dummy")
		}
	case mockapi.Gemini:
		writeFile(t, filepath.Join(home, ".gemini", "settings.json"), geminiSettings(!opts.NoAuth, !opts.DefaultRetries))
		env = append(env, "GOOGLE_GEMINI_BASE_URL="+srv.URL())
		if !opts.NoAuth {
			env = append(env, "GEMINI_API_KEY=dummy")
		}
	}
	return env
}

// baseEnv is what every CLI gets: PATH, a HOME of its own and no proxy.
func baseEnv(t testing.TB, home string) []string {
	t.Helper()
	tmp := filepath.Join(home, "tmp")
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	path := []string{BinDir()}
	if node, err := exec.LookPath("node"); err == nil {
		path = append(path, filepath.Dir(node))
	}
	if git, err := exec.LookPath("git"); err == nil {
		path = append(path, filepath.Dir(git))
	}
	path = append(path, "/usr/local/bin", "/usr/bin", "/bin")
	return []string{
		"PATH=" + strings.Join(path, string(os.PathListSeparator)),
		"HOME=" + home,
		"TMPDIR=" + tmp,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"LANG=C.UTF-8",
		"TERM=dumb",
		"NO_COLOR=1",
		"NO_PROXY=127.0.0.1,localhost",
		"no_proxy=127.0.0.1,localhost",
	}
}

// codexConfig is a config.toml with one custom provider at url. codex
// ignores OPENAI_BASE_URL; a provider of its own, on the Responses API over
// plain HTTP (no websockets), is the way to point it elsewhere. Its
// analytics and update check are off, and with noRetries its retries. The
// features that fetch plugins and apps are off too: with them on, codex
// 0.169.0 looks up github.com, api.github.com and chatgpt.com at start
// (seen with strace; with them off it makes no DNS lookup at all).
func codexConfig(url string, noRetries bool) string {
	retries := ""
	if noRetries {
		retries = "request_max_retries = 0\nstream_max_retries = 0\n"
	}
	return fmt.Sprintf(`model = "gpt-5.5"
model_provider = "mock"
check_for_update_on_startup = false

[analytics]
enabled = false

[features]
plugins = false
remote_plugin = false
plugin_sharing = false
apps = false
in_app_updates = false

[model_providers.mock]
name = "mock"
base_url = "%s/v1"
env_key = "%s"
wire_api = "responses"
supports_websockets = false
%s`, url, MockKeyVar, retries)
}

// geminiSettings is a settings.json that logs in with an API key (when
// auth) and turns off telemetry, usage statistics, update checks and (with
// noRetries) the chat model's retries (maxAttempts 1).
func geminiSettings(auth, noRetries bool) string {
	attempts := ""
	if noRetries {
		attempts = `, "maxAttempts": 1`
	}
	authPart := ""
	if auth {
		authPart = `"security": {"auth": {"selectedType": "gemini-api-key"}},
  `
	}
	return `{
  ` + authPart + `"general": {"disableAutoUpdate": true, "disableUpdateNag": true` + attempts + `},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false}
}
`
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
