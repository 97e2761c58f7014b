package adapters

import (
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/lazyre"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// piAdapter runs pi (@mariozechner/pi-coding-agent 0.73.1), which has no
// ACP: `pi --mode json` with the prompt on stdin prints one JSON event a
// line. pi has no permission checks (it writes where its model says).
type piAdapter struct{}

func (piAdapter) Name() string { return "pi" }

// ResumeArgs: pi is not continued by autobuild; it starts afresh.
func (piAdapter) ResumeArgs([]string, string) []string { return nil }

var piFixes = fixes{
	setupLogin:   "set the key of pi's provider (ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, …), or run `pi` once and /login",
	setupKey:     "check the key of pi's provider (or /login again in `pi`); a key that worked before may have been revoked",
	setupRoot:    "run autobuild as a non-root user",
	setupTrust:   "run `pi` once in the repository",
	setupAccess:  "check that the key may use pi's model (`--agent 'pi --model MODEL'`)",
	setupNetwork: "check the network and the baseUrl of the provider in ~/.pi/agent/models.json",
}

// Check: pi keeps logins in ~/.pi/agent/auth.json and custom providers in
// models.json; a provider's key variable also serves.
func (piAdapter) Check(sys agent.System) []agent.SetupProblem {
	dir := sys.Getenv("PI_CODING_AGENT_DIR")
	if dir == "" {
		dir = filepath.Join(sys.Home, ".pi", "agent")
	}
	if sys.Exists(filepath.Join(dir, "auth.json")) || sys.Exists(filepath.Join(dir, "models.json")) ||
		anyEnv(sys, "ANTHROPIC_API_KEY", "ANTHROPIC_OAUTH_TOKEN", "OPENAI_API_KEY", "GEMINI_API_KEY", "OPENROUTER_API_KEY", "GROQ_API_KEY", "XAI_API_KEY", "MISTRAL_API_KEY") {
		return nil
	}
	return []agent.SetupProblem{{Agent: "pi",
		Problem: "pi is not logged in: no " + filepath.Join(dir, "auth.json") + ", no models.json and no provider key in the environment",
		Fix:     piFixes[setupLogin]}}
}

func (piAdapter) NewParser(prompt, dir string) agent.Parser {
	return &piParser{prompt: newPromptLines(prompt), dir: dir, stderr: tail{n: 40}}
}

// piEvent is what the parser reads of one line of pi's stream.
type piEvent struct {
	Type    string         `json:"type"`
	ID      string         `json:"id"`
	Reason  string         `json:"reason"`
	Tool    string         `json:"toolName"`
	Args    map[string]any `json:"args"`
	Message *struct {
		Role    string `json:"role"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		StopReason   string `json:"stopReason"`
		ErrorMessage string `json:"errorMessage"`
		Usage        *struct {
			Input      int64 `json:"input"`
			Output     int64 `json:"output"`
			CacheRead  int64 `json:"cacheRead"`
			CacheWrite int64 `json:"cacheWrite"`
			Cost       struct {
				Total float64 `json:"total"`
			} `json:"cost"`
		} `json:"usage"`
	} `json:"message"`
}

// piTools are pi's tool names as autobuild shows them.
var piTools = map[string]string{"write": "Write", "edit": "Edit", "read": "Read", "bash": "Bash", "grep": "Grep", "find": "Glob", "ls": "List"}

type piParser struct {
	prompt promptLines
	dir    string

	mu       sync.Mutex
	session  string
	final    string
	errMsg   string // the error of pi's last assistant message, "" when it ended well
	overflow bool   // pi began compacting for an overflowing context
	usage    state.Usage
	stderr   tail
}

func (p *piParser) Stdout(line string) []agent.Note {
	var ev piEvent
	if !decodeLine(line, &ev) {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch ev.Type {
	case "session":
		p.session = ev.ID
	case "tool_execution_start":
		verb := piTools[ev.Tool]
		if verb == "" {
			verb = ev.Tool
		}
		p.final = ""
		return []agent.Note{toolNote(verb, ev.Args, p.dir)}
	case "compaction_start":
		if ev.Reason == "overflow" {
			p.overflow = true
		}
	case "message_end":
		m := ev.Message
		if m == nil || m.Role != "assistant" {
			return nil
		}
		if u := m.Usage; u != nil {
			p.usage.InputTokens += u.Input
			p.usage.OutputTokens += u.Output
			p.usage.CacheReadTokens += u.CacheRead
			p.usage.CacheWriteTokens += u.CacheWrite
			p.usage.CostUSD += u.Cost.Total
			p.usage.Turns++
		}
		if m.StopReason == "error" || m.ErrorMessage != "" {
			p.errMsg = m.ErrorMessage
			return []agent.Note{{Text: cleanLine(firstLine("error: " + m.ErrorMessage))}}
		}
		p.errMsg = ""
		var text strings.Builder
		for _, c := range m.Content {
			if c.Type == "text" {
				text.WriteString(c.Text)
			}
		}
		if text.Len() > 0 {
			p.final = text.String()
			return textNotes(p.final)
		}
	}
	return nil
}

func (p *piParser) Stderr(line string) []agent.Note {
	return stderrNote(p.prompt, &p.mu, &p.stderr, line, false)
}

// piStatusRE is the HTTP status pi puts first in an API error: "401 ...".
var piStatusRE = lazyre.New(`^\s*(\d{3})\b`)

func (p *piParser) Finish(exitCode int) agent.Outcome {
	p.mu.Lock()
	defer p.mu.Unlock()
	u := p.usage
	out := agent.Outcome{Final: p.final, Usage: counted(&u), Session: p.session}
	if p.errMsg == "" {
		if exitCode != 0 {
			out.Said = p.stderr.String()
			out.Signal = piFixes.fromText("pi", out.Said)
		}
		return out
	}
	// pi exits 0 after an API error: its last message is the error.
	out.Said = p.errMsg
	if m := piStatusRE().FindStringSubmatch(p.errMsg); m != nil {
		st, _ := strconv.Atoi(m[1])
		if t, kind, ok := statusSignal(st); ok {
			out.Signal = piFixes.signal("pi", t, kind, cleanLine(firstLine(p.errMsg)))
		}
	}
	if s := piFixes.fromText("pi", p.errMsg); s != nil && (out.Signal == nil || s.Type == failreport.ContextExhausted) {
		out.Signal = s
	}
	if out.Signal == nil && p.overflow {
		out.Signal = &agent.Signal{Type: failreport.ContextExhausted, Message: "pi's context overflowed: " + cleanLine(firstLine(p.errMsg))}
	}
	if out.Signal == nil {
		out.Signal = &agent.Signal{Type: failreport.AgentError, Message: cleanLine(firstLine(p.errMsg))}
	}
	return out
}
