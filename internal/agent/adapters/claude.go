package adapters

import (
	"bytes"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// claudeAdapter is Claude Code (@anthropic-ai/claude-code), checked against
// 2.1.330: `claude --help` and the stream-json events it prints.
type claudeAdapter struct{}

func (claudeAdapter) Name() string { return "claude" }

// ResumeArgs: claude -p --resume ID continues a session with the prompt
// on stdin.
func (claudeAdapter) ResumeArgs(args []string, session string) []string {
	if session == "" {
		return nil
	}
	return append(slices.Clone(args), "--resume", session)
}

var claudeFixes = fixes{
	setupLogin:  "log in once with `claude` then /login, or set ANTHROPIC_API_KEY (or CLAUDE_CODE_OAUTH_TOKEN from `claude setup-token`)",
	setupKey:    "check ANTHROPIC_API_KEY (or log in again with `claude` then /login); a key that worked before may have been revoked",
	setupRoot:   "set IS_SANDBOX=1 (in the environment, or `[agents.claude] env = {IS_SANDBOX = \"1\"}` in autobuild.toml) if this machine is a sandbox, or run autobuild as a non-root user",
	setupTrust:  "run `claude` once in the repository and accept the trust dialog",
	setupAccess: "check that ANTHROPIC_API_KEY's organization may use the model (choose another with `--agent 'claude --model sonnet'`), or log in again with `claude` then /login",
}

// Check: claude refuses --dangerously-skip-permissions as root unless
// IS_SANDBOX=1, and needs a key or a login: ANTHROPIC_API_KEY,
// ANTHROPIC_AUTH_TOKEN, CLAUDE_CODE_OAUTH_TOKEN, a cloud provider
// (CLAUDE_CODE_USE_BEDROCK/VERTEX/FOUNDRY), an apiKeyHelper in its
// settings, or the login it keeps in $CLAUDE_CONFIG_DIR (~/.claude)
// /.credentials.json or ~/.claude.json. On macOS the login lives in the
// keychain, which is not looked at: no login problem is reported there.
func (claudeAdapter) Check(sys agent.System) []agent.SetupProblem {
	var out []agent.SetupProblem
	if sys.UID == 0 && sys.Getenv("IS_SANDBOX") != "1" {
		out = append(out, agent.SetupProblem{Agent: "claude",
			Problem: "autobuild runs as root, and claude refuses --dangerously-skip-permissions as root (\"cannot be used with root/sudo privileges\")",
			Fix:     claudeFixes[setupRoot]})
	}
	if runtime.GOOS != "linux" {
		return out
	}
	for _, v := range []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN",
		"CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX", "CLAUDE_CODE_USE_FOUNDRY"} {
		if sys.Getenv(v) != "" {
			return out
		}
	}
	dir := sys.Getenv("CLAUDE_CONFIG_DIR")
	if dir == "" {
		dir = filepath.Join(sys.Home, ".claude")
	}
	if sys.Exists(filepath.Join(dir, ".credentials.json")) {
		return out
	}
	for _, f := range []string{filepath.Join(dir, ".claude.json"), filepath.Join(sys.Home, ".claude.json")} {
		if b, err := sys.ReadFile(f); err == nil && bytes.Contains(b, []byte(`"primaryApiKey"`)) {
			return out
		}
	}
	for _, f := range []string{filepath.Join(dir, "settings.json"), filepath.Join(dir, "settings.local.json")} {
		if b, err := sys.ReadFile(f); err == nil && bytes.Contains(b, []byte(`"apiKeyHelper"`)) {
			return out
		}
	}
	return append(out, agent.SetupProblem{Agent: "claude",
		Problem: fmt.Sprintf("claude is not logged in: no ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN or CLAUDE_CODE_OAUTH_TOKEN, and no login in %s", dir),
		Fix:     claudeFixes[setupLogin]})
}

func (claudeAdapter) NewParser(prompt, dir string) agent.Parser {
	return &claudeParser{prompt: newPromptLines(prompt), dir: dir, stderr: tail{n: 40}}
}

// claudeEvent is one line of claude's stream-json output; only the fields
// autobuild reads.
type claudeEvent struct {
	Type    string `json:"type"`
	Subtype string `json:"subtype"`
	// system init
	SessionID    string `json:"session_id"`
	Model        string `json:"model"`
	APIKeySource string `json:"apiKeySource"`
	// assistant
	Message *struct {
		Content []struct {
			Type  string         `json:"type"`
			Text  string         `json:"text"`
			Name  string         `json:"name"`
			Input map[string]any `json:"input"`
		} `json:"content"`
	} `json:"message"`
	ParentToolUseID *string `json:"parent_tool_use_id"`
	// assistant (an API error shown as a message) and system api_retry
	Error any `json:"error"`
	// system api_retry
	Attempt     int  `json:"attempt"`
	MaxRetries  int  `json:"max_retries"`
	ErrorStatus *int `json:"error_status"`
	// rate_limit_event: the subscription's unified limit, as the API's
	// anthropic-ratelimit-unified-* headers gave it.
	RateLimitInfo *claudeRateLimit `json:"rate_limit_info"`
	// result
	IsError        bool     `json:"is_error"`
	Result         string   `json:"result"`
	TerminalReason string   `json:"terminal_reason"`
	APIErrorStatus *int     `json:"api_error_status"`
	TotalCostUSD   *float64 `json:"total_cost_usd"`
	NumTurns       int      `json:"num_turns"`
	Usage          *struct {
		InputTokens              int64 `json:"input_tokens"`
		OutputTokens             int64 `json:"output_tokens"`
		CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
		CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
	} `json:"usage"`
}

// claudeRateLimit is a rate_limit_event's rate_limit_info: status
// "rejected" when the limit refused the request, resetsAt the exact reset
// (epoch seconds), rateLimitType the window ("five_hour", "seven_day",
// "seven_day_opus", "seven_day_sonnet", "overage").
type claudeRateLimit struct {
	Status        string `json:"status"`
	ResetsAt      int64  `json:"resetsAt"`
	RateLimitType string `json:"rateLimitType"`
}

type claudeParser struct {
	prompt promptLines
	dir    string

	mu       sync.Mutex // guards everything below
	events   int        // JSON events read
	session  string
	model    string
	noKey    bool   // init said apiKeySource "none"
	lastText string // the last text of a top-level assistant message
	result   *claudeEvent
	apiErr   string // an API error shown as an assistant message
	retry    *agent.Signal
	stderr   tail
	// limit is the last rate_limit_event that refused a request.
	limit *claudeRateLimit
}

func (p *claudeParser) Stdout(line string) []agent.Note {
	var ev claudeEvent
	if !decodeLine(line, &ev) {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.events++
	switch {
	case ev.Type == "system" && ev.Subtype == "init":
		p.session, p.model = ev.SessionID, ev.Model
		p.noKey = ev.APIKeySource == "none"
	case ev.Type == "system" && ev.Subtype == "api_retry":
		status := 0
		if ev.ErrorStatus != nil {
			status = *ev.ErrorStatus
		}
		kind := errorString(ev.Error)
		note := agent.Note{Text: cleanLine(fmt.Sprintf("API retry %d/%d: %s (status %d)", ev.Attempt, ev.MaxRetries, kind, status))}
		// claude retries a refused key ten times over minutes before it
		// gives up: no retry can fix a key, so the engine stops it now.
		if t, k, ok := statusSignal(status); ok && t == failreport.AgentSetup {
			p.retry = claudeFixes.signal("claude", t, k, fmt.Sprintf("API error %d, %s", status, kind))
			note.Signal = p.retry
		} else if kind == "authentication_failed" {
			p.retry = claudeFixes.signal("claude", failreport.AgentSetup, setupKey, kind)
			note.Signal = p.retry
		}
		return []agent.Note{note}
	case ev.Type == "assistant" && ev.Message != nil:
		var notes []agent.Note
		top := ev.ParentToolUseID == nil || *ev.ParentToolUseID == ""
		if e := errorString(ev.Error); e != "" {
			p.apiErr = e
		}
		for _, c := range ev.Message.Content {
			switch c.Type {
			case "tool_use":
				notes = append(notes, toolNote(c.Name, c.Input, p.dir))
			case "text":
				if top {
					p.lastText = c.Text
				}
				notes = append(notes, textNotes(c.Text)...)
			}
		}
		return notes
	case ev.Type == "rate_limit_event" && ev.RateLimitInfo != nil:
		if ev.RateLimitInfo.Status == "rejected" {
			p.limit = ev.RateLimitInfo
		}
		// The same event tells the quota's headroom (Quota.Low).
		if q, ok := claudeQuota(line); ok {
			return []agent.Note{{Quota: &q}}
		}
	case ev.Type == "result":
		r := ev
		p.result = &r
	}
	return nil
}

func (p *claudeParser) Stderr(line string) []agent.Note {
	return stderrNote(p.prompt, &p.mu, &p.stderr, line, false)
}

func (p *claudeParser) Finish(exitCode int) (out agent.Outcome) {
	p.mu.Lock()
	defer p.mu.Unlock()
	defer func() { out.Usage = counted(out.Usage) }()
	out = agent.Outcome{Session: p.session}
	r := p.result
	if r != nil {
		out.Usage = &state.Usage{Model: p.model, Turns: r.NumTurns}
		if u := r.Usage; u != nil {
			out.Usage.InputTokens, out.Usage.OutputTokens = u.InputTokens, u.OutputTokens
			out.Usage.CacheReadTokens, out.Usage.CacheWriteTokens = u.CacheReadInputTokens, u.CacheCreationInputTokens
		}
		if r.TotalCostUSD != nil {
			out.Usage.CostUSD = *r.TotalCostUSD
		}
	}
	// The result's subtype says success even when is_error is set: only
	// is_error and the exit status tell.
	if r != nil && !r.IsError && exitCode == 0 {
		out.Final = r.Result
		return out
	}
	if r == nil && exitCode == 0 {
		// No result event: the stream was cut short. The last message is
		// all there is; a result object must be in it.
		out.Final = p.lastText
		return out
	}
	said := []string{}
	if r != nil && r.Result != "" {
		said = append(said, r.Result)
	}
	if p.apiErr != "" {
		said = append(said, p.apiErr)
	}
	if p.events == 0 || r == nil {
		// claude failed before (or without) its stream: its stderr is its
		// own message (the root refusal, a bad flag).
		if s := p.stderr.String(); s != "" {
			said = append(said, s)
		}
	}
	out.Said = strings.Join(said, "\n")
	out.Signal = p.withLimit(p.signal(r, out.Said))
	return out
}

// withLimit adds the exact reset of the rate_limit_event that refused the
// run to a rate_limited signal: it is read before claude's words, which
// give the reset only to the minute.
func (p *claudeParser) withLimit(s *agent.Signal) *agent.Signal {
	if s == nil || s.Type != failreport.RateLimited || p.limit == nil || p.limit.ResetsAt <= 0 {
		return s
	}
	c := *s
	c.ResetsAt = time.Unix(p.limit.ResetsAt, 0)
	return &c
}

// signal reads the failure from the result's structured fields first, then
// from the text claude said.
func (p *claudeParser) signal(r *claudeEvent, said string) *agent.Signal {
	if p.retry != nil {
		return p.retry
	}
	if r != nil {
		if r.APIErrorStatus != nil {
			if t, k, ok := statusSignal(*r.APIErrorStatus); ok {
				return claudeFixes.signal("claude", t, k, cleanLine(fmt.Sprintf("API error %d: %s", *r.APIErrorStatus, firstLine(r.Result))))
			}
		}
		switch r.TerminalReason {
		case "prompt_too_long":
			return &agent.Signal{Type: failreport.ContextExhausted, Message: "the prompt is too long for the model's context (" + cleanLine(firstLine(r.Result)) + ")"}
		}
		switch p.apiErr {
		case "authentication_failed":
			kind := setupKey
			if p.noKey {
				kind = setupLogin
			}
			return claudeFixes.signal("claude", failreport.AgentSetup, kind, cleanLine(firstLine(r.Result)))
		case "rate_limit", "overloaded":
			return &agent.Signal{Type: failreport.RateLimited, Message: "the model API refused (" + p.apiErr + "): " + cleanLine(firstLine(r.Result))}
		}
	}
	if s := claudeFixes.fromText("claude", said); s != nil {
		return s
	}
	if p.noKey && r != nil && r.IsError {
		return claudeFixes.signal("claude", failreport.AgentSetup, setupLogin, cleanLine(firstLine(r.Result)))
	}
	return nil
}

// errorString reads an error field that is a string or an object with a
// type or message.
func errorString(v any) string {
	switch e := v.(type) {
	case string:
		return e
	case map[string]any:
		for _, k := range []string{"type", "message"} {
			if s, ok := e[k].(string); ok && s != "" {
				return s
			}
		}
	}
	return ""
}
