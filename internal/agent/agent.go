package agent

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mattn/go-shellwords"

	"github.com/autobuild-sh/autobuild/internal/agent/preset"
	"github.com/autobuild-sh/autobuild/internal/gates"
)

// Agent is a resolved --agent value: the command the engine runs in a
// phase's worktree, with the prompt on stdin.
type Agent struct {
	// Name is shown to the user: the preset's name ("claude"), "sim", or the
	// base name of the command's program ("fix.sh").
	Name string `json:"name"`
	// Args is the argv to run directly; empty when Shell is set.
	Args []string `json:"args,omitempty"`
	// Shell is a command line run with sh -c; empty when Args is set.
	Shell string `json:"shell,omitempty"`
	// RequiresResult is set for the presets of real agent CLIs: their output
	// must end with a result object (missing or garbled is a parse_error). A
	// plain command may omit it and is judged by exit code and gates.
	RequiresResult bool `json:"requires_result,omitempty"`
	// Spec is the --agent value that gives this agent back (run.json keeps
	// it, so a resume needs no --agent): the preset's name (with the user's
	// arguments), "sim", or the command line, with a relative program path
	// made absolute.
	Spec string `json:"spec,omitempty"`
	// Preset names the preset of a real agent CLI (package preset; its
	// adapter is adapters.For's); empty for
	// a plain command and the simulated agent.
	Preset string `json:"preset,omitempty"`
	// Extra are the user's arguments after the preset's own, from
	// `--agent 'claude --model opus'` and autobuild.toml; already in Args.
	Extra []string `json:"extra,omitempty"`
	// Env is the agent's own environment from autobuild.toml (KEY=value),
	// after the adapter's.
	Env []string `json:"env,omitempty"`
	// ACP is set for an agent run through the Agent Client Protocol
	// (`acp:CMD`, the presets qwen, opencode and copilot, or a preset with
	// `[agents.NAME] acp = true`): the engine speaks the protocol with it
	// (adapters.ACPAdapterFor) instead of reading a stream.
	ACP bool `json:"acp,omitempty"`
}

// Command is the agent's command as one line, for logs and messages.
func (a Agent) Command() string {
	if a.Shell != "" {
		return a.Shell
	}
	return strings.Join(a.Args, " ")
}

// SimName is the --agent value of the built-in simulated agent.
const SimName = "sim"

// resolvePreset resolves a spec whose first word is a preset's name (any
// case): the preset's command line with the spec's other words (split as a
// shell would, quotes kept together) after it. ok is false for any other
// spec.
func resolvePreset(spec string) (a Agent, ok bool, err error) {
	words, err := shellwords.Parse(spec)
	if err != nil || len(words) == 0 {
		return Agent{}, false, nil
	}
	name := strings.ToLower(words[0])
	p, known := preset.Named(name)
	if !known {
		return Agent{}, false, nil
	}
	extra := words[1:]
	a = Agent{Name: name, Preset: name, RequiresResult: true, Spec: name, ACP: p.ACPOnly()}
	if len(extra) > 0 {
		a.Extra = extra
		a.Spec = name + " " + shellJoin(extra)
	}
	a.Args = append(append([]string(nil), presetArgs(a)...), extra...)
	if !a.ACP {
		a.Env = p.Environment(os.Getenv)
	}
	return a, true, nil
}

// WithConfig adds the user's per-agent arguments and environment from
// autobuild.toml to a preset: arguments after the preset's own (and before
// those given in --agent), environment after the adapter's.
func (a Agent) WithConfig(args, env []string) Agent {
	if a.Preset == "" || (len(args) == 0 && len(env) == 0) {
		return a
	}
	base := presetArgs(a)
	a.Args = append(append(append([]string(nil), base...), args...), a.Extra...)
	a.Env = mergeEnv(a.Env, env)
	return a
}

// mergeEnv returns base with over's entries laid on top: an entry of over
// replaces base's entry of the same name in place (so a value the user set
// in autobuild.toml, such as CLAUDE_CODE_MAX_RETRIES, is the one the agent
// sees and the only one a log shows), and new names are added in order.
func mergeEnv(base, over []string) []string {
	out := append([]string(nil), base...)
	at := make(map[string]int, len(out))
	for i, kv := range out {
		at[envName(kv)] = i
	}
	for _, kv := range over {
		if i, ok := at[envName(kv)]; ok {
			out[i] = kv
			continue
		}
		at[envName(kv)] = len(out)
		out = append(out, kv)
	}
	return out
}

func envName(kv string) string {
	name, _, _ := strings.Cut(kv, "=")
	return name
}

// shellJoin quotes words for a command line that splits back into them.
func shellJoin(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		if w != "" && strings.IndexFunc(w, func(r rune) bool {
			return !(r == '-' || r == '_' || r == '.' || r == '/' || r == '=' || r == ':' || r == ',' || r == '@' ||
				('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9'))
		}) < 0 {
			out[i] = w
			continue
		}
		out[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}

// Resolve turns an --agent value into an Agent: a preset name (package
// preset: "claude", "codex", …), `acp:` and
// the command line of any ACP agent, optionally followed by arguments for it
// ("claude --model opus"), "sim" for the simulated agent (simCommand is how
// to start it, e.g. [/path/to/autobuild, sim-agent]), or any command line: a
// single word runs as a program, anything longer with sh -c.
func Resolve(spec string, simCommand []string) (Agent, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return Agent{}, errors.New("empty agent: give a preset (" + strings.Join(preset.Names(), ", ") + "), acp:COMMAND, sim, or a command line")
	}
	// Preset names are matched in any case: "--agent Claude" means the
	// preset, not a program called Claude.
	key := strings.ToLower(spec)
	if strings.HasPrefix(key, ACPPrefix) {
		return resolveACP(spec)
	}
	if a, ok, err := resolvePreset(spec); ok || err != nil {
		return a, err
	}
	if key == SimName {
		if len(simCommand) == 0 {
			return Agent{}, errors.New("the simulated agent is not available here: no command to start it")
		}
		return Agent{Name: SimName, Args: append([]string(nil), simCommand...), Spec: SimName}, nil
	}
	words := strings.Fields(spec)
	if len(words) == 1 {
		return Agent{Name: filepath.Base(spec), Args: []string{spec}, Spec: absProgram(spec)}, nil
	}
	return Agent{Name: commandName(words), Shell: spec, Spec: spec}, nil
}

// absProgram makes a relative path to a program ("./fix.sh", "bin/fix")
// absolute, so that it names the same file from any directory; a bare name
// is looked up on PATH and stays as it is.
func absProgram(spec string) string {
	if !strings.ContainsRune(spec, '/') || filepath.IsAbs(spec) {
		return spec
	}
	if abs, err := filepath.Abs(spec); err == nil {
		return abs
	}
	return spec
}

// commandName is the base name of a command line's program, found as a
// gate's tool is (assignments and wrappers skipped):
// "FOO=1 ./bin/fix.sh --all" → "fix.sh".
func commandName(words []string) string {
	if tool := gates.ToolOf(strings.Join(words, " ")); tool != "" {
		return filepath.Base(strings.Trim(tool, `"'`))
	}
	return words[0]
}

// String describes the agent for messages: "claude (claude -p ...)".
func (a Agent) String() string {
	return fmt.Sprintf("%s (%s)", a.Name, a.Command())
}
