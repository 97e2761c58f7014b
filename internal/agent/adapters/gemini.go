package adapters

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/lazyre"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// geminiAdapter is the Gemini CLI (@google/gemini-cli), checked against
// 0.61.0: `gemini --help`, docs/cli/headless.md and its stream-json
// formatter.
type geminiAdapter struct{}

func (geminiAdapter) Name() string { return "gemini" }

// ResumeArgs: gemini's --resume takes "latest" or an index into the
// project's list, not the id its stream reports, and phases share the
// repository's list, so it starts afresh with a summary instead.
func (geminiAdapter) ResumeArgs([]string, string) []string { return nil }

var geminiFixes = fixes{
	setupLogin:  "set GEMINI_API_KEY (a key from Google AI Studio), or run `gemini` once and choose \"Login with Google\"",
	setupKey:    "check GEMINI_API_KEY (or log in again with `gemini`); a key that worked before may have been revoked",
	setupRoot:   "run autobuild as a non-root user",
	setupTrust:  "trust the repository: run `gemini` in it once and accept, or keep --skip-trust in the preset",
	setupAccess: "check that GEMINI_API_KEY is active and may use the model (choose another with `--agent 'gemini -m MODEL'`)",
}

// geminiExit maps gemini's documented exit codes to signals: 41 is
// FatalAuthenticationError, 55 FatalUntrustedWorkspaceError, 53 the turn
// limit.
var geminiExit = map[int]struct {
	typ  failreport.Type
	kind setupKind
	what string
}{
	41: {failreport.AgentSetup, setupLogin, "exit 41: authentication"},
	55: {failreport.AgentSetup, setupTrust, "exit 55: untrusted workspace"},
	53: {failreport.ContextExhausted, "", "exit 53: the session's turn limit was reached"},
}

// Check: gemini in headless mode (0.61.0, validateNonInteractiveAuth)
// takes the auth type from its settings (security.auth.selectedType in
// ~/.gemini/settings.json or the repository's .gemini/settings.json), else
// from the environment, in this order: GOOGLE_GENAI_USE_GCA=true,
// GOOGLE_GENAI_USE_VERTEXAI=true, GOOGLE_GEMINI_BASE_URL (the "gateway"
// type, which headless mode refuses: "Invalid auth method selected", exit
// 41), GEMINI_API_KEY (also read from ~/.gemini/.env or ~/.env), and
// CLOUD_SHELL or GEMINI_CLI_USE_COMPUTE_ADC.
func (geminiAdapter) Check(sys agent.System) []agent.SetupProblem {
	dir := filepath.Join(sys.Home, ".gemini")
	for _, f := range []string{filepath.Join(dir, "settings.json"), filepath.Join(sys.Dir, ".gemini", "settings.json")} {
		if b, err := sys.ReadFile(f); err == nil && bytes.Contains(b, []byte(`"selectedType"`)) {
			return nil
		}
	}
	if sys.Getenv("GOOGLE_GENAI_USE_GCA") == "true" || sys.Getenv("GOOGLE_GENAI_USE_VERTEXAI") == "true" {
		return nil
	}
	if sys.Getenv("GOOGLE_GEMINI_BASE_URL") != "" {
		return []agent.SetupProblem{{Agent: "gemini",
			Problem: "gemini takes GOOGLE_GEMINI_BASE_URL without an auth type in its settings as the \"gateway\" auth method, which it refuses in headless mode (\"Invalid auth method selected\")",
			Fix:     `set "security": {"auth": {"selectedType": "gemini-api-key"}} in ` + filepath.Join(dir, "settings.json") + `, with GEMINI_API_KEY set`}}
	}
	if sys.Getenv("GEMINI_API_KEY") != "" || sys.Getenv("CLOUD_SHELL") == "true" || sys.Getenv("GEMINI_CLI_USE_COMPUTE_ADC") == "true" {
		return nil
	}
	for _, f := range []string{filepath.Join(dir, ".env"), filepath.Join(sys.Home, ".env")} {
		if b, err := sys.ReadFile(f); err == nil && bytes.Contains(b, []byte("GEMINI_API_KEY")) {
			return nil
		}
	}
	return []agent.SetupProblem{{Agent: "gemini",
		Problem: "gemini has no auth method: no GEMINI_API_KEY, and no security.auth.selectedType in " + filepath.Join(dir, "settings.json"),
		Fix:     geminiFixes[setupLogin]}}
}

func (geminiAdapter) NewParser(prompt, dir string) agent.Parser {
	return &geminiParser{prompt: newPromptLines(prompt), dir: dir, stderr: tail{n: 40}, errs: tail{n: 10}}
}

// geminiEvent is one line of gemini's stream-json output.
type geminiEvent struct {
	Type       string         `json:"type"`
	SessionID  string         `json:"session_id"`
	Model      string         `json:"model"`
	Role       string         `json:"role"`
	Content    string         `json:"content"`
	Delta      bool           `json:"delta"`
	ToolName   string         `json:"tool_name"`
	Parameters map[string]any `json:"parameters"`
	Severity   string         `json:"severity"`
	Message    string         `json:"message"`
	Status     string         `json:"status"`
	Error      *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
		Code    any    `json:"code"`
	} `json:"error"`
	Stats *struct {
		InputTokens  int64 `json:"input_tokens"`
		OutputTokens int64 `json:"output_tokens"`
		Cached       int64 `json:"cached"`
	} `json:"stats"`
}

type geminiParser struct {
	prompt promptLines
	dir    string

	mu      sync.Mutex // guards everything below
	events  int
	session string
	model   string
	// message is the assistant's text since its last tool call: the final
	// message once the stream ends. pending is its unfinished last line.
	message strings.Builder
	pending string
	result  *geminiEvent
	errs    tail
	stderr  tail
	turns   int
}

func (p *geminiParser) Stdout(line string) []agent.Note {
	var ev geminiEvent
	if !decodeLine(line, &ev) {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.events++
	switch ev.Type {
	case "init":
		p.session, p.model = ev.SessionID, ev.Model
	case "message":
		if ev.Role != "assistant" {
			return nil
		}
		if !ev.Delta {
			p.message.Reset()
			p.pending = ""
		}
		p.message.WriteString(ev.Content)
		// Deltas split lines anywhere: show the lines they complete.
		text := p.pending + ev.Content
		i := strings.LastIndexByte(text, '\n')
		if i < 0 {
			p.pending = text
			return nil
		}
		p.pending = text[i+1:]
		return textNotes(text[:i])
	case "tool_use":
		notes := p.flush()
		p.message.Reset()
		p.turns++
		return append(notes, toolNote(ev.ToolName, ev.Parameters, p.dir))
	case "error":
		p.errs.add(ev.Message)
		return []agent.Note{{Text: cleanLine(ev.Message)}}
	case "result":
		r := ev
		p.result = &r
		return p.flush()
	}
	return nil
}

// flush shows the unfinished last line of the message so far.
func (p *geminiParser) flush() []agent.Note {
	n := textNotes(p.pending)
	p.pending = ""
	return n
}

func (p *geminiParser) Stderr(line string) []agent.Note {
	// gemini's error object on stderr is read back as JSON: kept raw.
	return stderrNote(p.prompt, &p.mu, &p.stderr, line, true)
}

func (p *geminiParser) Finish(exitCode int) (out agent.Outcome) {
	p.mu.Lock()
	defer p.mu.Unlock()
	defer func() { out.Usage = counted(out.Usage) }()
	out = agent.Outcome{Session: p.session}
	r := p.result
	if r != nil && r.Stats != nil {
		out.Usage = &state.Usage{Model: p.model, InputTokens: r.Stats.InputTokens, OutputTokens: r.Stats.OutputTokens,
			CacheReadTokens: r.Stats.Cached, Turns: p.turns + 1}
	}
	if exitCode == 0 && (r == nil || r.Status != "error") {
		out.Final = p.message.String()
		return out
	}
	var said []string
	if r != nil && r.Error != nil {
		said = append(said, r.Error.Message)
	}
	if s := p.errs.String(); s != "" {
		said = append(said, s)
	}
	if r == nil {
		// gemini failed before its result (auth, trust): it prints its
		// fatal error on stderr, as a JSON object or a plain message.
		// After a result, stderr only repeats it with a stack trace.
		stderr := p.stderr.String()
		if msg := jsonErrorMessage(stderr); msg != "" {
			said = append(said, msg)
		} else if stderr != "" {
			said = append(said, stderr)
		}
	}
	out.Said = strings.Join(said, "\n")
	out.Signal = p.signal(exitCode, r, out.Said)
	return out
}

// apiCodeRE finds the HTTP status gemini quotes from its API's error
// object: `[API Error: {"error":{"code":401,...`.
var apiCodeRE = lazyre.New(`"code"\s*:\s*(\d{3})`)

// signal reads the failure from gemini's exit status and the API status
// in its result's error first, then from its words.
func (p *geminiParser) signal(exitCode int, r *geminiEvent, said string) *agent.Signal {
	if e, ok := geminiExit[exitCode]; ok {
		detail := e.what
		if l := lastLines(said); l != "" {
			detail += ": " + cleanLine(firstLine(l))
		}
		if e.typ != failreport.AgentSetup {
			return &agent.Signal{Type: e.typ, Message: "gemini " + detail}
		}
		return geminiFixes.signal("gemini", e.typ, e.kind, detail)
	}
	if r != nil && r.Error != nil {
		if m := apiCodeRE().FindStringSubmatch(r.Error.Message); m != nil {
			code, _ := strconv.Atoi(m[1])
			if t, k, ok := statusSignal(code); ok {
				return geminiFixes.signal("gemini", t, k, cleanLine(fmt.Sprintf("API error %d: %s", code, apiMessage(r.Error.Message))))
			}
		}
	}
	if s := geminiFixes.fromText("gemini", said); s != nil {
		return s
	}
	if r != nil && r.Error != nil {
		return &agent.Signal{Type: failreport.AgentError, Message: cleanLine(fmt.Sprintf("gemini: %s: %s", r.Error.Type, r.Error.Message))}
	}
	return nil
}

// apiMessage is the message inside the API error object gemini quotes, or
// the whole text.
func apiMessage(s string) string {
	if i := strings.Index(s, `"message":"`); i >= 0 {
		rest := s[i+len(`"message":"`):]
		if j := strings.Index(rest, `"`); j >= 0 {
			return rest[:j]
		}
	}
	return s
}

// jsonErrorMessage finds {"error": {"message": ...}} in text printed over
// several lines, as gemini prints its fatal errors on stderr.
func jsonErrorMessage(text string) string {
	i := strings.Index(text, "{")
	if i < 0 {
		return ""
	}
	var v struct {
		Error *struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if decodeLine(strings.ReplaceAll(text[i:], "\n", " "), &v) && v.Error != nil {
		return v.Error.Message
	}
	return ""
}

// lastLines is the last non-blank line of s, where a CLI's final error is.
func lastLines(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
