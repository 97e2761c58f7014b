package adapters

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// codexAdapter is the OpenAI Codex CLI (@openai/codex), checked against
// 0.169.0: `codex exec --help` and the JSONL events of `exec --json`.
type codexAdapter struct{}

func (codexAdapter) Name() string { return "codex" }

// ResumeArgs: codex exec [its options] resume SESSION -: the options stay
// in front of the subcommand, the "-" (prompt on stdin) goes last.
func (codexAdapter) ResumeArgs(args []string, session string) []string {
	if session == "" {
		return nil
	}
	args = slices.DeleteFunc(slices.Clone(args), func(s string) bool { return s == "-" })
	return append(args, "resume", session, "-")
}

var codexFixes = fixes{
	setupLogin:   "log in once with `codex login`, or set CODEX_API_KEY (`[agents.codex] env` in autobuild.toml works too)",
	setupKey:     "check CODEX_API_KEY or OPENAI_API_KEY, or log in again with `codex login`; a key that worked before may have been revoked",
	setupRoot:    "run autobuild as a non-root user",
	setupTrust:   "run `codex` once in the repository and trust it",
	setupAccess:  "check that the key's project may use the model (choose another with `--agent 'codex -m MODEL'`), or log in again with `codex login`",
	setupNetwork: "check the network, and the base_url of the model provider in $CODEX_HOME/config.toml (codex ignores OPENAI_BASE_URL)",
}

// Check: codex needs CODEX_API_KEY, OPENAI_API_KEY or CODEX_ACCESS_TOKEN,
// or the login `codex login` keeps in $CODEX_HOME (~/.codex)/auth.json. A
// config.toml that picks a model_provider of its own brings its own key:
// the variable its env_key names must be set.
func (codexAdapter) Check(sys agent.System) []agent.SetupProblem {
	for _, v := range []string{"CODEX_API_KEY", "OPENAI_API_KEY", "CODEX_ACCESS_TOKEN"} {
		if sys.Getenv(v) != "" {
			return nil
		}
	}
	home := sys.Getenv("CODEX_HOME")
	if home == "" {
		home = filepath.Join(sys.Home, ".codex")
	}
	if sys.Exists(filepath.Join(home, "auth.json")) {
		return nil
	}
	if b, err := sys.ReadFile(filepath.Join(home, "config.toml")); err == nil {
		if name, key, ok := codexProviderKey(b); ok {
			if key == "" || sys.Getenv(key) != "" {
				return nil
			}
			return []agent.SetupProblem{{Agent: "codex",
				Problem: fmt.Sprintf("codex's model provider %q takes its key from %s, which is not set", name, key),
				Fix:     fmt.Sprintf("set %s (in the environment, or `[agents.codex] env` in autobuild.toml)", key)}}
		}
	}
	return []agent.SetupProblem{{Agent: "codex",
		Problem: "codex is not logged in: no CODEX_API_KEY or OPENAI_API_KEY, and no " + filepath.Join(home, "auth.json"),
		Fix:     codexFixes[setupLogin]}}
}

// codexProviderKey reads the model provider a codex config.toml picks and
// the variable its key comes from (env_key; "" for none). ok is false when
// the file picks no provider of its own (or cannot be read as TOML).
func codexProviderKey(config []byte) (name, key string, ok bool) {
	var c struct {
		ModelProvider  string `toml:"model_provider"`
		ModelProviders map[string]struct {
			EnvKey string `toml:"env_key"`
		} `toml:"model_providers"`
	}
	if _, err := toml.Decode(string(config), &c); err != nil || c.ModelProvider == "" || c.ModelProvider == "openai" {
		return "", "", false
	}
	return c.ModelProvider, c.ModelProviders[c.ModelProvider].EnvKey, true
}

func (codexAdapter) NewParser(prompt, dir string) agent.Parser {
	return &codexParser{prompt: newPromptLines(prompt), dir: dir, stderr: tail{n: 40}, errs: tail{n: 10}}
}

// codexEvent is one line of `codex exec --json`.
type codexEvent struct {
	Type     string     `json:"type"`
	ThreadID string     `json:"thread_id"`
	Item     *codexItem `json:"item"`
	Usage    *struct {
		InputTokens       int64 `json:"input_tokens"`
		CachedInputTokens int64 `json:"cached_input_tokens"`
		OutputTokens      int64 `json:"output_tokens"`
	} `json:"usage"`
	Error   *struct{ Message string } `json:"error"`
	Message string                    `json:"message"`
}

type codexItem struct {
	ID      string `json:"id"`
	Type    string `json:"type"`
	Text    string `json:"text"`
	Command string `json:"command"`
	Message string `json:"message"`
	Server  string `json:"server"`
	Tool    string `json:"tool"`
	Query   string `json:"query"`
	Changes []struct {
		Path string `json:"path"`
		Kind string `json:"kind"`
	} `json:"changes"`
}

type codexParser struct {
	prompt promptLines
	dir    string

	mu       sync.Mutex // guards everything below
	events   int
	thread   string
	final    string // the last agent_message of the run
	usage    *state.Usage
	failed   string // turn.failed's message
	errs     tail   // "error" events: retries, stream errors
	stderr   tail
	shownCmd map[string]bool // item ids whose command was shown at its start
	offline  int             // "waiting for network" errors so far
	stopped  *agent.Signal   // why the engine was asked to stop codex
}

// codexOfflineLimit is how many "waiting for network" reconnects stop
// codex: codex 0.169.0 prints one about every 15 seconds, forever.
const codexOfflineLimit = 3

func (p *codexParser) Stdout(line string) []agent.Note {
	var ev codexEvent
	if !decodeLine(line, &ev) {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.events++
	switch ev.Type {
	case "thread.started":
		p.thread = ev.ThreadID
	case "turn.completed":
		if u := ev.Usage; u != nil {
			p.usage = p.usage.Add(&state.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
				CacheReadTokens: u.CachedInputTokens, Turns: 1})
		}
	case "turn.failed":
		if ev.Error != nil {
			p.failed = ev.Error.Message
			return []agent.Note{{Text: cleanLine("turn failed: " + ev.Error.Message)}}
		}
	case "error":
		p.errs.add(ev.Message)
		note := agent.Note{Text: cleanLine(ev.Message)}
		// Offline, codex reconnects forever ("Reconnecting... waiting
		// for network"), until the phase's time limit. A few in a row
		// (about half a minute) are enough to stop it and say why.
		if strings.Contains(ev.Message, "waiting for network") {
			p.offline++
			if p.offline == codexOfflineLimit {
				note.Signal = codexFixes.signal("codex", failreport.AgentSetup, setupNetwork, cleanLine(ev.Message))
			}
		} else if s := codexFixes.fromText("codex", ev.Message); s != nil && s.Type == failreport.AgentSetup {
			// codex retries a refused key five times ("Reconnecting...
			// 1/5 (unexpected status 401 ...)"): no retry fixes a key.
			note.Signal = s
		}
		if note.Signal != nil && p.stopped == nil {
			p.stopped = note.Signal
		} else {
			note.Signal = nil
		}
		return []agent.Note{note}
	case "item.started", "item.completed":
		if ev.Item != nil {
			return p.item(ev.Type, ev.Item)
		}
	}
	return nil
}

// item shows a tool call once, when it starts (a command) or completes (a
// file change, whose paths are known then), and keeps the agent's messages.
func (p *codexParser) item(kind string, it *codexItem) []agent.Note {
	switch it.Type {
	case "command_execution":
		if p.shownCmd[it.ID] {
			return nil
		}
		if p.shownCmd == nil {
			p.shownCmd = map[string]bool{}
		}
		p.shownCmd[it.ID] = true
		return []agent.Note{toolNote("Bash", map[string]any{"command": unwrapShell(it.Command)}, p.dir)}
	case "file_change":
		if kind != "item.completed" {
			return nil
		}
		var notes []agent.Note
		for _, c := range it.Changes {
			verb := "Edit"
			switch c.Kind {
			case "add":
				verb = "Write"
			case "delete":
				verb = "Delete"
			}
			notes = append(notes, agent.Note{Tool: verb, Text: verb + " " + cleanLine(relPath(c.Path, p.dir))})
		}
		return notes
	case "mcp_tool_call":
		if kind == "item.started" {
			return []agent.Note{{Tool: it.Tool, Text: cleanLine(it.Server + " " + it.Tool)}}
		}
	case "web_search":
		if kind == "item.started" {
			return []agent.Note{toolNote("WebSearch", map[string]any{"query": it.Query}, p.dir)}
		}
	case "agent_message":
		if kind == "item.completed" {
			p.final = it.Text
			return textNotes(it.Text)
		}
	case "error":
		if kind == "item.completed" {
			p.errs.add(it.Message)
			return []agent.Note{{Text: cleanLine(it.Message)}}
		}
	}
	return nil
}

func (p *codexParser) Stderr(line string) []agent.Note {
	// codex's text mode echoes the whole prompt on stderr; --json should
	// not, but whatever of the prompt shows up here is not codex speaking.
	return stderrNote(p.prompt, &p.mu, &p.stderr, line, false)
}

func (p *codexParser) Finish(exitCode int) (out agent.Outcome) {
	p.mu.Lock()
	defer p.mu.Unlock()
	defer func() { out.Usage = counted(out.Usage) }()
	out = agent.Outcome{Session: p.thread, Usage: p.usage}
	if exitCode == 0 && p.failed == "" {
		out.Final = p.final
		return out
	}
	var said []string
	if p.failed != "" {
		said = append(said, p.failed)
	}
	if s := p.errs.String(); s != "" {
		said = append(said, s)
	}
	if p.events == 0 {
		// codex failed before its stream began (a bad flag, a config
		// error): its stderr is its own message.
		if s := p.stderr.String(); s != "" {
			said = append(said, s)
		}
	}
	out.Said = strings.Join(said, "\n")
	if p.stopped != nil {
		out.Signal = p.stopped
		return out
	}
	// codex reports errors as messages only ("unexpected status 401
	// Unauthorized: ..."): the structured part is that it is turn.failed.
	out.Signal = codexFixes.fromText("codex", out.Said)
	if out.Signal == nil && p.failed != "" {
		out.Signal = &agent.Signal{Type: failreport.AgentError, Message: "codex: " + cleanLine(firstLine(p.failed))}
	}
	return out
}
