package adapters

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/sanitize"
)

// ACPCancelWait is how long Cancel waits for the agent to end its turn after
// session/cancel before the process is stopped anyway (the CLIs seen answer
// within 0.1 s).
const ACPCancelWait = 3 * time.Second

// ACPConfig is one attempt's conversation.
type ACPConfig struct {
	// Dir is the phase's worktree: the session's cwd, and the only place
	// the agent may write through the client or with its permission.
	Dir string
	// Prompt is the attempt's prompt, sent as one session/prompt.
	Prompt string
	// Load is the session an attempt after an exhausted context continues
	// (session/load), when the agent advertises loadSession; "" starts a
	// new session.
	Load string
	// Show receives what the attempt log and the UI show: tool calls, plan
	// updates, lines of the agent's messages, and autobuild's own notes
	// (a refused permission). It is called from one goroutine at a time.
	Show func(agent.Note)
	// Log receives autobuild's remarks for the attempt log only
	// ("# autobuild: ...").
	Log func(string)
	// Agent names the agent in messages ("gemini"); Fixes are its CLI's
	// fixes for setup problems, nil for an agent autobuild has no preset
	// for.
	Agent string
	Fixes fixes
}

// ACPSession is one attempt's conversation with an agent: it drives an agent that speaks the Agent Client Protocol
// (JSON-RPC 2.0 over its stdin and stdout: gemini --acp, qwen --acp,
// opencode acp, copilot --acp, claude-code-acp, codex-acp) through one
// phase attempt: initialize, session/new in the phase's worktree (or
// session/load of the attempt's earlier session), the prompt as one
// session/prompt, the session/update notifications as tool lines and
// message lines, session/request_permission answered allow inside the
// worktree and refused outside it, fs/read_text_file and fs/write_text_file
// served inside the worktree only, and session/cancel when the attempt is
// stopped. The engine starts the process (package proc) and hands the
// session its pipes; the protocol itself is github.com/coder/acp-go-sdk.
type ACPSession struct {
	cfg  ACPConfig
	root string // Dir with its symbolic links resolved

	// done is closed when the conversation is over: the turn ended, failed,
	// or the agent went away.
	done chan struct{}

	mu        sync.Mutex // guards the fields below and serializes cfg.Show
	conn      *sdk.ClientSideConnection
	session   sdk.SessionId
	loadable  bool
	started   bool // session/prompt was sent
	stop      sdk.StopReason
	err       error  // the failure of a request, nil on a turn that ended
	final     string // agent message text since its last tool call
	line      string // the unfinished line of the agent's message
	tools     map[sdk.ToolCallId]bool
	usage     *usageAcc
	afterTool bool // a tool call came after the message so far
	pending   *pendingTool
	refused   []string
	canceled  bool
	stderrLog []string
}

// NewACPSession returns the conversation of one attempt; Run speaks it.
func NewACPSession(cfg ACPConfig) *ACPSession {
	root := cfg.Dir
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	if cfg.Show == nil {
		cfg.Show = func(agent.Note) {}
	}
	if cfg.Log == nil {
		cfg.Log = func(string) {}
	}
	return &ACPSession{cfg: cfg, root: root, done: make(chan struct{}), tools: map[sdk.ToolCallId]bool{}}
}

// Done is closed when the conversation is over: the engine then stops the
// agent's process, which an ACP agent does not end itself.
func (s *ACPSession) Done() <-chan struct{} { return s.done }

// Run speaks with the agent over its stdin (w) and stdout (r) until the
// turn ends, a request fails or the agent's stdout closes. ctx bounds the
// requests; the caller ends it when the process is gone.
func (s *ACPSession) Run(ctx context.Context, w io.Writer, r io.Reader) {
	defer close(s.done)
	conn := sdk.NewClientSideConnection(client{s}, w, lingerReader{r: r, done: s.done})
	conn.SetLogger(slog.New(slog.NewTextHandler(logWriter{s}, &slog.HandlerOptions{Level: slog.LevelWarn})))
	s.mu.Lock()
	s.conn = conn
	s.mu.Unlock()
	// The requests end when the agent goes away (its stdout closes) or the
	// caller gives up.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-conn.Done():
			cancel()
		case <-ctx.Done():
		}
	}()

	init, err := conn.Initialize(ctx, sdk.InitializeRequest{
		ProtocolVersion: sdk.ProtocolVersionNumber,
		ClientInfo:      &sdk.Implementation{Name: "autobuild", Version: "1"},
		// The agent may write through the client (inside the worktree
		// only); it reads and runs commands itself.
		ClientCapabilities: sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}},
	})
	if err != nil {
		s.failed("initialize", err)
		return
	}
	s.mu.Lock()
	s.loadable = init.AgentCapabilities.LoadSession
	s.mu.Unlock()

	var sid sdk.SessionId
	if s.cfg.Load != "" && init.AgentCapabilities.LoadSession {
		s.cfg.Log(fmt.Sprintf("continuing the agent's session %s (session/load)", s.cfg.Load))
		if _, err := conn.LoadSession(ctx, sdk.LoadSessionRequest{SessionId: sdk.SessionId(s.cfg.Load), Cwd: s.cfg.Dir, McpServers: []sdk.McpServer{}}); err != nil {
			s.failed("session/load", err)
			return
		}
		sid = sdk.SessionId(s.cfg.Load)
		// What the agent replays of the loaded session is not this
		// attempt's message.
		s.mu.Lock()
		s.final, s.line = "", ""
		s.mu.Unlock()
	} else {
		ns, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: s.cfg.Dir, McpServers: []sdk.McpServer{}})
		if err != nil {
			s.failed("session/new", err)
			return
		}
		sid = ns.SessionId
	}
	s.mu.Lock()
	s.session = sid
	s.started = true
	canceled := s.canceled
	s.mu.Unlock()
	if canceled {
		return
	}

	resp, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sid, Prompt: []sdk.ContentBlock{sdk.TextBlock(s.cfg.Prompt)}})
	if err != nil {
		s.failed("session/prompt", err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stop = resp.StopReason
	s.addUsage(promptUsage(resp))
}

// failed records a request's failure.
func (s *ACPSession) failed(method string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = fmt.Errorf("%s: %w", method, err)
	}
}

// Cancel sends session/cancel when a turn is under way and waits up to
// ACPCancelWait for the agent to end it: the engine calls it before it stops
// the process (Ctrl-C, a timeout).
func (s *ACPSession) Cancel() {
	s.mu.Lock()
	s.canceled = true
	conn, sid, started := s.conn, s.session, s.started
	s.mu.Unlock()
	select {
	case <-s.done:
		return
	default:
	}
	if conn == nil || !started {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), ACPCancelWait)
	defer cancel()
	if err := conn.Cancel(ctx, sdk.CancelNotification{SessionId: sid}); err != nil {
		s.cfg.Log("session/cancel could not be sent: " + err.Error())
		return
	}
	s.cfg.Log("sent session/cancel to end the agent's turn")
	select {
	case <-s.done:
	case <-ctx.Done():
		s.cfg.Log(fmt.Sprintf("the agent did not end its turn within %s of session/cancel", ACPCancelWait))
	}
}

// Stderr is one line of the agent's stderr: shown as the CLI's own words,
// and kept as what it said about a failure.
func (s *ACPSession) Stderr(line string) []agent.Note {
	line = cleanLine(line)
	if line == "" {
		return nil
	}
	s.mu.Lock()
	s.stderrLog = append(s.stderrLog, line)
	if len(s.stderrLog) > 40 {
		s.stderrLog = s.stderrLog[len(s.stderrLog)-40:]
	}
	s.mu.Unlock()
	return []agent.Note{{Text: line}}
}

// Outcome is what the conversation amounts to, given the process's exit
// status, and the exit status the attempt is judged by: a turn that ended
// (end_turn) is 0 even when the process had to be stopped, a failed
// request or a refused turn is 1.
func (s *ACPSession) Outcome(exitCode int) (agent.Outcome, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushTool()
	s.flushLine()
	out := agent.Outcome{Final: s.final, Usage: s.usage.state()}
	if s.loadable {
		// Kept only where session/load can continue it: an agent that
		// cannot load sessions starts afresh with a summary instead.
		out.Session = string(s.session)
	}
	if s.session != "" {
		s.cfg.Log(fmt.Sprintf("ACP session %s (session/load %s)", s.session, map[bool]string{true: "advertised", false: "not advertised"}[s.loadable]))
	}
	switch {
	case s.err != nil:
		out.Said = strings.TrimSpace(s.err.Error() + "\n" + strings.Join(s.stderrLog, "\n"))
		out.Signal = s.classify(s.err)
		if exitCode == 0 {
			exitCode = 1
		}
	case s.stop == sdk.StopReasonEndTurn:
		exitCode = 0
		// copilot ends its turn normally with the API's error as its
		// message ("Error: 401 ..."): without a result object, that error
		// is what the attempt amounts to.
		if line := errorLine(s.final); line != "" {
			if _, err := agent.ParseResult(s.final); err != nil {
				out.Said = line
				out.Signal = s.classify(errors.New(line))
				exitCode = 1
			}
		}
	case s.stop == sdk.StopReasonCancelled:
		out.Said = "the agent's turn was cancelled"
		if exitCode == 0 {
			exitCode = 1
		}
	case s.stop != "":
		out.Said = "the agent ended its turn: " + string(s.stop)
		if s.stop == sdk.StopReasonMaxTokens {
			out.Signal = &agent.Signal{Type: contextExhausted, Message: "the agent stopped at its token limit (stopReason max_tokens)"}
		}
		exitCode = 1
	default:
		// The agent went away before it answered the prompt.
		out.Said = strings.Join(s.stderrLog, "\n")
		if exitCode == 0 {
			exitCode = 1
		}
	}
	if len(s.refused) > 0 && out.Said != "" {
		out.Said += "\nrefused: " + strings.Join(s.refused, "; ")
	}
	return out, exitCode
}

// lingerWait is how long the end of the agent's output is held back while
// the conversation is not over.
const lingerWait = time.Second

// lingerReader holds the end of the agent's output back until the
// conversation is over (or lingerWait): the protocol library reports a
// request whose answer was the agent's last line, just before its output
// ended, as "peer disconnected" about half the time.
type lingerReader struct {
	r    io.Reader
	done <-chan struct{}
}

func (l lingerReader) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	if err == io.EOF {
		select {
		case <-l.done:
		case <-time.After(lingerWait):
		}
	}
	return n, err
}

// logWriter sends the protocol library's own diagnostics (a message it
// could not parse) to the attempt log, never to autobuild's terminal.
type logWriter struct{ s *ACPSession }

func (l logWriter) Write(p []byte) (int, error) {
	l.s.cfg.Log("acp: " + sanitize.Line(strings.TrimSpace(string(p))))
	return len(p), nil
}
