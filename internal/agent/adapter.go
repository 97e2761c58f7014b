package agent

import (
	"time"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// Adapter is what autobuild knows about one agent CLI (claude, codex,
// gemini, aider, pi; and every agent run through ACP) beyond its row in
// the preset table (package preset: its command line and environment): the
// setup problems it is known for, how it continues a session, and how to
// read what it prints. The engine runs the command, feeds the parser the
// agent's stdout and stderr line by line, each apart from the other, and
// reads the attempt's Outcome from the parser when the process has ended.
// Plain commands and the simulated agent have no adapter: their whole
// output is read as it always was. The adapters are in package adapters.
type Adapter interface {
	// Name is the program to find on PATH: "claude".
	Name() string
	// ResumeArgs is the agent's command line args continuing its session
	// (with the prompt on stdin, as always): nil when the CLI cannot
	// continue one of its sessions in print mode.
	ResumeArgs(args []string, session string) []string
	// Check finds the CLI's known setup problems (no login or key, root
	// without the sandbox setting) from the environment and the CLI's
	// credential files, without running it: it spends no tokens and takes
	// milliseconds.
	Check(sys System) []SetupProblem
	// NewParser returns the parser of one attempt. prompt is what the
	// agent got on stdin: a CLI that echoes it must not be read as saying
	// it. dir is the attempt's working directory, for showing paths
	// relative to it.
	NewParser(prompt, dir string) Parser
}

// Parser reads one attempt's output. Stdout and Stderr are called from one
// goroutine each; implementations lock what they share. Finish is called
// once, after both streams ended.
type Parser interface {
	// Stdout takes one line of the agent's stdout (without its newline) and
	// returns what it shows: tool calls and lines of the agent's messages,
	// for the attempt log and the UI. Most lines of a stream show nothing.
	Stdout(line string) []Note
	// Stderr takes one line of the agent's stderr and returns what it
	// shows (a CLI's own warnings and errors; never an echoed prompt).
	Stderr(line string) []Note
	// Finish returns the attempt's outcome, given the exit status.
	Finish(exitCode int) Outcome
}

// Note is one thing a stream line shows: a tool call or a line of text.
type Note struct {
	// Tool is set for a tool call: the tool's name in the form autobuild
	// shows for every CLI ("Write", "Edit", "Read", "Bash", or the CLI's
	// own name for others).
	Tool string `json:"tool,omitempty"`
	// Text is the line to show: "Write calc/format.go", "Bash go test
	// ./...", or a line of the agent's message. It is one line, cleaned of
	// control characters.
	Text string `json:"text"`
	// Signal is set when the line is a failure the agent CLI reported
	// while still running (a 401 it would retry ten times): the engine
	// stops the agent at once instead of waiting for it.
	Signal *Signal `json:"-"`
	// Quota is set when the line reported the provider's usage limit
	// (claude's rate_limit_event); such a note has no Text.
	Quota *Quota `json:"-"`
}

// Outcome is what an attempt's output amounts to.
type Outcome struct {
	// Final is the agent's final message, the only text a result object
	// is read from: never stderr, an echoed prompt or a tool's output.
	Final string
	// Said is what the agent CLI itself said about a failure (its error
	// messages, and its stderr when it failed before its stream began),
	// for the classifier's text patterns. Empty on success.
	Said string
	// Signal is the failure the CLI reported in its structured output or
	// its exit status, nil when it reported none.
	Signal *Signal
	// Usage is the attempt's tokens, turns and cost, nil when the CLI
	// reported none.
	Usage *state.Usage
	// Session is the CLI's session or thread id, for the attempt log.
	Session string
}

// Signal is a failure an agent CLI reported about itself, read from its
// structured output first and its own error text second.
type Signal struct {
	// Type is agent_setup, rate_limited, context_exhausted or agent_error.
	Type failreport.Type
	// Message says what happened, in the CLI's words where they are clear:
	// "claude is not logged in (Not logged in · Please run /login)".
	Message string
	// Fix is the exact thing to do about it, for agent_setup.
	Fix string
	// ResetsAt is a usage limit's exact reset, when the CLI's structured
	// output gives it (claude's rate_limit_event): read before its words.
	ResetsAt time.Time
}

// SetupProblem is a known reason an agent CLI cannot run here, found before
// the run starts.
type SetupProblem struct {
	Agent string
	// Problem says what is wrong; Fix, what to do about it.
	Problem string
	Fix     string
}

// System is what Check may look at: the environment, the user, files.
// Tests give a fake one.
type System struct {
	// Getenv looks up an environment variable of autobuild's environment
	// with the agent's own env (autobuild.toml) applied.
	Getenv func(string) string
	// Home is the user's home directory.
	Home string
	// Dir is the repository the agent will work in (its worktrees are
	// copies of it): some CLIs read settings from there too.
	Dir string
	// UID is the effective user id (0 is root).
	UID int
	// Exists reports whether a file exists.
	Exists func(path string) bool
	// ReadFile reads a small file (a settings file).
	ReadFile func(path string) ([]byte, error)
}
