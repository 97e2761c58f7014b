// Package preset is the one table of the agent presets: each real agent CLI
// autobuild knows by name, with its command lines, environment, how to
// install it, whether it continues its own sessions and the names of its
// tools. It is a leaf: package agent resolves --agent values from it, the
// adapters (package adapters) read their CLI's output, config accepts
// [agents.NAME] for its names, and failure names its install commands and
// recognizes its broken installations, all from the rows below.
//
// Adding a preset is one row here, one adapter (internal/agent/adapters:
// a parser and a login check, or only a login check for a CLI that speaks
// ACP) and one fixture folder (testdata/agents/NAME, recorded with
// internal/agenttest); TestPresetsAreConsistent (internal/cli, which sees
// every package that reads the table) checks that they agree.
package preset

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"
)

// Preset is one agent CLI autobuild knows by name.
type Preset struct {
	// Name is the --agent value and the [agents.NAME] table: "claude".
	Name string
	// Args is the preset's command line, program first, before the
	// user's own arguments; nil for a preset that runs only through ACP.
	// A preset with Args has an adapter that reads its output.
	Args []string
	// Env is what the preset adds to the agent's environment (KEY=value);
	// the user's env from autobuild.toml goes after it and wins.
	Env []string
	// EnvDefaults are added too unless autobuild's own environment sets
	// the variable: a value of the user's wins there as well.
	EnvDefaults []string
	// ACP is the preset's command line through the Agent Client Protocol,
	// program first; nil when it has no ACP mode. A preset without Args
	// always runs this way; one with both switches with
	// `[agents.NAME] acp = true`.
	ACP []string
	// Install is the program of Args (or of ACP, for a preset that runs
	// only through ACP) and how to install it.
	Install Install
	// ACPInstall is the program of ACP when it is another than Install's
	// (claude-code-acp, codex-acp); nil when it is the same.
	ACPInstall *Install
	// Resumable is set when the CLI continues one of its sessions in
	// print mode with a new prompt (the adapter's ResumeArgs says how).
	// An ACP agent continues with session/load instead, when it
	// advertises it.
	Resumable bool
	// ToolVerbs maps the CLI's tool names to the verbs autobuild shows for
	// every CLI ("Write", "Edit", "Read", "Bash"), so a log reads the same
	// whichever agent wrote it. A tool not listed keeps its own name.
	ToolVerbs map[string]string
}

// Install is one agent CLI's program and how to install it.
type Install struct {
	// Program is the program looked up on PATH: "claude".
	Program string
	// Title names it for people: "Claude Code".
	Title string
	// Package is its npm package ("@anthropic-ai/claude-code"), pinned in
	// agents/package.json for the end-to-end tests; "" when it does not
	// come from npm.
	Package string
	// Command installs it.
	Command string
	// Reinstall mends a broken installation, when installing again with
	// Command is not the way ("" when it is).
	Reinstall string
	// Markers are path elements or module names only its installation
	// has (its npm package's folder, its Python package): a runtime that
	// cannot load one of them means the CLI's installation is broken.
	Markers []string
}

// Repair is how to mend a broken installation of the CLI.
func (i Install) Repair() string {
	if i.Reinstall != "" {
		return i.Reinstall
	}
	return i.Command
}

// npm is the Install of a CLI from npm.
func npm(program, title, pkg string, markers ...string) Install {
	return Install{Program: program, Title: title, Package: pkg, Command: "npm install -g " + pkg,
		Markers: append([]string{pkg}, markers...)}
}

// table is every preset, in the order help texts list them.
var table = []Preset{
	{
		Name: "claude",
		// -p runs headless and, with no prompt argument, reads the prompt
		// from stdin. stream-json prints one JSON event per line as they
		// happen (a tool call as it starts, so --idle-timeout never kills a
		// working agent); --print needs --verbose for it. Without the
		// permission bypass it stops to ask before every edit and command,
		// and nobody is there to answer.
		Args: []string{"claude", "-p", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions"},
		// The auto-updater would change the CLI under a run; claude's own
		// retries are held to RetryBudget (see there) unless the user set
		// a budget of their own.
		Env:         []string{"DISABLE_AUTOUPDATER=1"},
		EnvDefaults: []string{claudeRetryEnv},
		// claude-code-acp bundles its own claude and asks for every write:
		// the client allows those inside the worktree, so no permission
		// flag (and no IS_SANDBOX as root) is needed.
		ACP:        []string{"claude-code-acp"},
		Install:    npm("claude", "Claude Code", "@anthropic-ai/claude-code", "claude-code"),
		ACPInstall: ptr(npm("claude-code-acp", "claude-code-acp (Claude Code over ACP)", "@zed-industries/claude-code-acp", "claude-code-acp")),
		Resumable:  true,
		ToolVerbs: map[string]string{
			"Write": "Write", "Edit": "Edit", "MultiEdit": "Edit", "NotebookEdit": "Edit", "Read": "Read",
			"Bash": "Bash", "Glob": "Glob", "Grep": "Grep", "WebFetch": "Fetch", "WebSearch": "Search",
		},
	},
	{
		Name: "codex",
		// exec is the non-interactive mode; "-" reads the prompt from
		// stdin. --json prints one event per line on stdout, and, unlike
		// the text mode, does not echo the prompt on stderr. The default
		// sandbox is read-only: workspace-write lets it edit the worktree
		// (the older --full-auto means the same and is deprecated).
		Args: []string{"codex", "exec", "--json", "--sandbox", "workspace-write", "-"},
		// codex-acp starts read-only; it needs bwrap on PATH for its
		// sandbox.
		ACP:        []string{"codex-acp", "-c", "sandbox_mode=workspace-write"},
		Install:    npm("codex", "Codex CLI", "@openai/codex"),
		ACPInstall: ptr(npm("codex-acp", "codex-acp (Codex over ACP)", "@zed-industries/codex-acp", "codex-acp")),
		Resumable:  true,
	},
	{
		Name: "aider",
		// aider commits every change by default and would add .aider* to
		// .gitignore: both are turned off, since the engine owns git. Its
		// chat history files would otherwise land in the worktree as new
		// files. It reads the prompt from a file, so a small shell passes
		// $AUTOBUILD_PROMPT_FILE and then the user's own arguments ("$@").
		Args: []string{"sh", "-c", `exec aider --yes-always --no-auto-commits --no-dirty-commits --no-gitignore --no-check-update` +
			` --input-history-file /dev/null --chat-history-file /dev/null --message-file "$AUTOBUILD_PROMPT_FILE" "$@"`, "aider"},
		Install: Install{Program: "aider", Title: "aider", Command: "python -m pip install aider-install && aider-install",
			Reinstall: "pipx reinstall aider-chat (or: pip install --force-reinstall aider-chat)",
			Markers:   []string{"aider_chat", "aider"}},
	},
	{
		Name: "gemini",
		// -p runs headless, and its text is appended to the prompt read
		// from stdin. --approval-mode yolo approves every tool call (--yolo
		// is deprecated for it). --skip-trust trusts the folder for this
		// session: folder trust is on by default and every worktree is a
		// new folder, where gemini would exit 55, or (before that) turn
		// yolo back into "default".
		Args: []string{"gemini", "--output-format", "stream-json", "--approval-mode", "yolo", "--skip-trust",
			"-p", "Carry out the task above, then end with the result object it asks for."},
		ACP:     []string{"gemini", "--acp"},
		Install: npm("gemini", "Gemini CLI", "@google/gemini-cli", "gemini-cli"),
		ToolVerbs: map[string]string{
			"write_file": "Write", "replace": "Edit", "read_file": "Read", "read_many_files": "Read",
			"run_shell_command": "Bash", "glob": "Glob", "search_file_content": "Grep", "grep_search": "Grep",
			"list_directory": "List", "web_fetch": "Fetch", "google_web_search": "Search",
		},
	},
	{
		Name:    "qwen",
		ACP:     []string{"qwen", "--acp"},
		Install: npm("qwen", "Qwen Code", "@qwen-code/qwen-code", "qwen-code"),
	},
	{
		Name:    "opencode",
		ACP:     []string{"opencode", "acp"},
		Install: npm("opencode", "opencode", "opencode-ai"),
	},
	{
		Name:    "copilot",
		ACP:     []string{"copilot", "--acp"},
		Install: npm("copilot", "GitHub Copilot CLI", "@github/copilot"),
	},
	{
		Name: "pi",
		// --mode json prints one JSON event a line; the prompt is read
		// from stdin.
		Args:    []string{"pi", "--mode", "json"},
		Install: npm("pi", "pi", "@mariozechner/pi-coding-agent", "pi-coding-agent"),
	},
}

func ptr[T any](v T) *T { return &v }

// All returns every preset, in the order help texts list them.
func All() []Preset {
	out := make([]Preset, len(table))
	for i, p := range table {
		out[i] = p.clone()
	}
	return out
}

// Named returns the preset of that name (lower case), false for none.
func Named(name string) (Preset, bool) {
	for _, p := range table {
		if p.Name == name {
			return p.clone(), true
		}
	}
	return Preset{}, false
}

// Names are the presets' names, for help texts and messages.
func Names() []string {
	out := make([]string, len(table))
	for i, p := range table {
		out[i] = p.Name
	}
	return out
}

// ResumableNames are the presets that continue their own sessions in print
// mode (Resumable), in table order.
func ResumableNames() []string {
	var out []string
	for _, p := range table {
		if p.Resumable {
			out = append(out, p.Name)
		}
	}
	return out
}

// ACPNames are the presets that run through ACP (always, or with acp =
// true), sorted.
func ACPNames() []string {
	var out []string
	for _, p := range table {
		if p.ACP != nil {
			out = append(out, p.Name)
		}
	}
	slices.Sort(out)
	return out
}

// OfACPProgram returns the preset whose ACP command line runs the program
// of args (by its base name: `acp:gemini --acp` is gemini,
// `acp:claude-code-acp` claude), false for none.
func OfACPProgram(args []string) (Preset, bool) {
	if len(args) == 0 {
		return Preset{}, false
	}
	prog := filepath.Base(args[0])
	for _, p := range table {
		if p.ACP != nil && p.ACP[0] == prog {
			return p.clone(), true
		}
	}
	return Preset{}, false
}

// Programs are the installs of every preset's programs, each once: the
// line-mode and ACP-only CLIs, then the ACP programs of their own
// (claude-code-acp, codex-acp).
func Programs() []Install {
	var out []Install
	for _, p := range table {
		out = append(out, p.Install)
	}
	for _, p := range table {
		if p.ACPInstall != nil {
			out = append(out, *p.ACPInstall)
		}
	}
	return out
}

// Verb is the verb autobuild shows for a CLI's tool name, "" for a tool no
// preset lists.
func Verb(tool string) string {
	for _, p := range table {
		if v, ok := p.ToolVerbs[tool]; ok {
			return v
		}
	}
	return ""
}

// ACPOnly reports whether the preset runs only through ACP.
func (p Preset) ACPOnly() bool { return p.Args == nil && p.ACP != nil }

// ACPProgram is the install of the program the preset's ACP command line
// runs.
func (p Preset) ACPProgram() Install {
	if p.ACPInstall != nil {
		return *p.ACPInstall
	}
	return p.Install
}

// Environment is what the preset adds to the agent's environment: Env,
// then each of EnvDefaults whose variable getenv (autobuild's own
// environment) does not set.
func (p Preset) Environment(getenv func(string) string) []string {
	env := slices.Clone(p.Env)
	for _, kv := range p.EnvDefaults {
		name, _, _ := strings.Cut(kv, "=")
		if getenv(name) == "" {
			env = append(env, kv)
		}
	}
	return env
}

// clone copies the row's slices, so no caller can change the table.
func (p Preset) clone() Preset {
	p.Args, p.Env, p.EnvDefaults, p.ACP = slices.Clone(p.Args), slices.Clone(p.Env), slices.Clone(p.EnvDefaults), slices.Clone(p.ACP)
	p.Install.Markers = slices.Clone(p.Install.Markers)
	p.ToolVerbs = maps.Clone(p.ToolVerbs)
	if p.ACPInstall != nil {
		in := *p.ACPInstall
		in.Markers = slices.Clone(in.Markers)
		p.ACPInstall = &in
	}
	return p
}
