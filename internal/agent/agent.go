package agent

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

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
	// it, so a resume needs no --agent): the preset's name, "sim", or the
	// command line, with a relative program path made absolute.
	Spec string `json:"spec,omitempty"`
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

// presets are the real agent CLIs autobuild knows, set up for unattended,
// non-interactive use: the prompt arrives on stdin (or in
// $AUTOBUILD_PROMPT_FILE), every tool use is pre-approved since nobody is
// there to approve it, and nothing commits (the engine commits).
var presets = map[string]Agent{
	// -p prints the final answer and exits; with no prompt argument Claude
	// Code reads the prompt from stdin. Without the permission bypass it
	// stops to ask before every edit and command.
	"claude": {Args: []string{"claude", "-p", "--dangerously-skip-permissions", "--output-format", "text"}},
	// codex exec is the non-interactive mode; "-" reads the prompt from
	// stdin. Its default sandbox is read-only: workspace-write lets it edit
	// the worktree (the older --full-auto flag means the same and is
	// deprecated).
	"codex": {Args: []string{"codex", "exec", "--sandbox", "workspace-write", "-"}},
	// aider commits every change by default and would add .aider* to
	// .gitignore: both are turned off, since the engine owns git. Its chat
	// history files would otherwise land in the worktree as new files.
	"aider": {Shell: `aider --yes-always --no-auto-commits --no-dirty-commits --no-gitignore --no-check-update` +
		` --input-history-file /dev/null --chat-history-file /dev/null --message-file "$AUTOBUILD_PROMPT_FILE"`},
	// -p runs headless and is appended to the prompt read from stdin;
	// --yolo approves every tool call.
	"gemini": {Args: []string{"gemini", "--yolo", "-p", "Carry out the task above, then end with the result object it asks for."}},
}

// Presets returns the names of the preset agents, for help texts.
func Presets() []string { return []string{"claude", "codex", "aider", "gemini"} }

// Resolve turns an --agent value into an Agent: a preset name ("claude",
// "codex", "aider", "gemini"), "sim" for the simulated agent (simCommand is
// how to start it, e.g. [/path/to/autobuild, sim-agent]), or any command
// line: a single word runs as a program, anything longer with sh -c.
func Resolve(spec string, simCommand []string) (Agent, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return Agent{}, errors.New("empty agent: give a preset (claude, codex, aider, gemini), sim, or a command line")
	}
	// Preset names are matched in any case: "--agent Claude" means the
	// preset, not a program called Claude.
	key := strings.ToLower(spec)
	if p, ok := presets[key]; ok {
		p.Name, p.Spec = key, key
		p.Args = append([]string(nil), p.Args...)
		p.RequiresResult = true
		return p, nil
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
