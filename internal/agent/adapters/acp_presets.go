package adapters

import (
	"bytes"
	"path/filepath"

	"github.com/autobuild-sh/autobuild/internal/agent"
)

// acpCheck is what autobuild knows of a preset it runs through ACP beyond
// its row in package preset (its ACP command line and install): the login
// check of the CLI behind it and that CLI's fixes. The presets qwen,
// opencode and copilot run only this way; claude, codex and gemini switch
// to it with `[agents.NAME] acp = true`.
type acpCheck struct {
	check func(agent.System) []agent.SetupProblem
	fixes fixes
}

// acpChecks are the ACP presets' checks, by preset name.
var acpChecks = map[string]acpCheck{
	"gemini": {check: geminiAdapter{}.Check, fixes: geminiFixes},
	// claude-code-acp asks for every write instead of skipping
	// permissions: claude's check without the root one.
	"claude":   {check: claudeLoginCheck, fixes: claudeFixes},
	"codex":    {check: codexAdapter{}.Check, fixes: codexFixes},
	"qwen":     {check: qwenCheck, fixes: qwenFixes},
	"opencode": {check: opencodeCheck, fixes: opencodeFixes},
	"copilot":  {check: copilotCheck, fixes: copilotFixes},
}

var qwenFixes = fixes{
	setupLogin:   "set OPENAI_API_KEY (with OPENAI_BASE_URL and OPENAI_MODEL for an OpenAI-compatible endpoint), or run `qwen` once and log in (Qwen OAuth)",
	setupKey:     "check OPENAI_API_KEY (or log in again with `qwen`); a key that worked before may have been revoked",
	setupRoot:    "run autobuild as a non-root user",
	setupTrust:   "run `qwen` once in the repository and trust it",
	setupAccess:  "check that the key may use the model (OPENAI_MODEL, or `--agent 'qwen --model MODEL'`)",
	setupNetwork: "check the network and OPENAI_BASE_URL",
}

var opencodeFixes = fixes{
	setupLogin:   "run `opencode auth login` once, or set the key of the provider its config names (ANTHROPIC_API_KEY, OPENAI_API_KEY, …)",
	setupKey:     "check the provider's key (or run `opencode auth login` again); a key that worked before may have been revoked",
	setupRoot:    "run autobuild as a non-root user",
	setupTrust:   "run `opencode` once in the repository",
	setupAccess:  "check that the key may use the model in opencode.json (or `--agent 'opencode -m PROVIDER/MODEL'`)",
	setupNetwork: "check the network and the provider's baseURL in opencode.json",
}

var copilotFixes = fixes{
	setupLogin:   "run `copilot` once and /login, or set COPILOT_GITHUB_TOKEN (or GH_TOKEN) to a token with the Copilot Requests permission",
	setupKey:     "check COPILOT_GITHUB_TOKEN / GH_TOKEN (or /login again in `copilot`); the token may have expired",
	setupRoot:    "run autobuild as a non-root user",
	setupTrust:   "run `copilot` once in the repository and trust the folder",
	setupAccess:  "check that your GitHub account has a Copilot plan that allows the model",
	setupNetwork: "check the network (copilot talks to api.githubcopilot.com)",
}

// anyEnv reports whether one of the variables is set.
func anyEnv(sys agent.System, names ...string) bool {
	for _, n := range names {
		if sys.Getenv(n) != "" {
			return true
		}
	}
	return false
}

// fileHas reports whether one of the files holds one of the words.
func fileHas(sys agent.System, files []string, words ...string) bool {
	for _, f := range files {
		b, err := sys.ReadFile(f)
		if err != nil {
			continue
		}
		if len(words) == 0 {
			return true
		}
		for _, w := range words {
			if bytes.Contains(b, []byte(w)) {
				return true
			}
		}
	}
	return false
}

// qwenCheck: qwen logs in with an OpenAI-compatible key, its own OAuth
// (~/.qwen/oauth_creds.json) or an auth type in its settings.
func qwenCheck(sys agent.System) []agent.SetupProblem {
	dir := filepath.Join(sys.Home, ".qwen")
	if anyEnv(sys, "OPENAI_API_KEY", "DASHSCOPE_API_KEY", "QWEN_API_KEY") || sys.Exists(filepath.Join(dir, "oauth_creds.json")) ||
		fileHas(sys, []string{filepath.Join(dir, "settings.json"), filepath.Join(sys.Dir, ".qwen", "settings.json")}, `"selectedType"`) {
		return nil
	}
	return []agent.SetupProblem{{Agent: "qwen",
		Problem: "qwen is not logged in: no OPENAI_API_KEY, no " + filepath.Join(dir, "oauth_creds.json") + " and no security.auth.selectedType in " + filepath.Join(dir, "settings.json"),
		Fix:     qwenFixes[setupLogin]}}
}

// opencodeCheck: opencode keeps logins in its data folder's auth.json;
// a provider in its config, or a provider's key variable, also serves.
func opencodeCheck(sys agent.System) []agent.SetupProblem {
	data := sys.Getenv("XDG_DATA_HOME")
	if data == "" {
		data = filepath.Join(sys.Home, ".local", "share")
	}
	conf := sys.Getenv("XDG_CONFIG_HOME")
	if conf == "" {
		conf = filepath.Join(sys.Home, ".config")
	}
	if sys.Exists(filepath.Join(data, "opencode", "auth.json")) ||
		anyEnv(sys, "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY", "OPENROUTER_API_KEY", "GROQ_API_KEY", "OPENCODE_CONFIG", "OPENCODE_CONFIG_CONTENT") ||
		fileHas(sys, []string{filepath.Join(conf, "opencode", "opencode.json"), filepath.Join(conf, "opencode", "opencode.jsonc"),
			filepath.Join(sys.Dir, "opencode.json"), filepath.Join(sys.Dir, "opencode.jsonc")}, `"provider"`) {
		return nil
	}
	return []agent.SetupProblem{{Agent: "opencode",
		Problem: "opencode is not logged in: no " + filepath.Join(data, "opencode", "auth.json") + ", no provider in opencode.json and no provider key in the environment",
		Fix:     opencodeFixes[setupLogin]}}
}

// copilotCheck: copilot takes a token from COPILOT_GITHUB_TOKEN, GH_TOKEN
// or GITHUB_TOKEN, or the login kept in ~/.copilot/config.json; with its
// own model provider (COPILOT_PROVIDER_BASE_URL, "BYOK") it needs no GitHub
// login.
func copilotCheck(sys agent.System) []agent.SetupProblem {
	dir := sys.Getenv("COPILOT_HOME")
	if dir == "" {
		dir = filepath.Join(sys.Home, ".copilot")
	}
	if anyEnv(sys, "COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN", "COPILOT_PROVIDER_BASE_URL") ||
		fileHas(sys, []string{filepath.Join(dir, "config.json")}, `"logged_in_users"`, `"last_logged_in_user"`) {
		return nil
	}
	return []agent.SetupProblem{{Agent: "copilot",
		Problem: "copilot is not logged in: no COPILOT_GITHUB_TOKEN, GH_TOKEN or GITHUB_TOKEN, and no login in " + filepath.Join(dir, "config.json"),
		Fix:     copilotFixes[setupLogin]}}
}
