// Package fakeacp is a scripted ACP agent for tests: it speaks the Agent
// Client Protocol (JSON-RPC 2.0, one message a line) on a reader and a
// writer as gemini --acp or opencode acp do, written on the spec without
// the SDK autobuild's client uses, so the tests check the client against
// the protocol rather than against itself. Run it in a goroutine (Serve) or
// as a process (Main, from a test binary's TestMain).
package fakeacp

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// ScriptEnv holds a Script as JSON for Main; LogEnv names the file the
// agent appends what it received to (one line per method, "pid N" first).
const (
	ScriptEnv = "AUTOBUILD_FAKE_ACP_SCRIPT"
	LogEnv    = "AUTOBUILD_FAKE_ACP_LOG"
)

// Script is what the fake agent does with the prompt.
type Script struct {
	// LoadSession is advertised in initialize.
	LoadSession bool `json:"load_session,omitempty"`
	// Steps run in order during the prompt's turn.
	Steps []Step `json:"steps,omitempty"`
	// Error answers session/prompt (after the steps) with a JSON-RPC error;
	// NewSessionError answers session/new with one.
	Error           *RPCError `json:"error,omitempty"`
	NewSessionError *RPCError `json:"new_session_error,omitempty"`
	// StopReason ends the turn (end_turn when empty).
	StopReason string `json:"stop_reason,omitempty"`
	// Usage is reported in the prompt's answer.
	Usage *Usage `json:"usage,omitempty"`
	// Hang holds the turn open until session/cancel (answered cancelled)
	// or forever when IgnoreCancel.
	Hang         bool `json:"hang,omitempty"`
	IgnoreCancel bool `json:"ignore_cancel,omitempty"`
	// ExitAfterTurn exits the process after answering the prompt (most
	// ACP agents keep running).
	ExitAfterTurn bool `json:"exit_after_turn,omitempty"`
	// AfterLoad is the script of a turn in a session continued with
	// session/load.
	AfterLoad *Script `json:"after_load,omitempty"`
}

// Step is one thing the agent does in its turn.
type Step struct {
	// Text is sent as agent_message_chunk.
	Text string `json:"text,omitempty"`
	// Tool announces a tool call (tool_call) of Kind on Path with Title.
	Tool  string `json:"tool,omitempty"`
	Kind  string `json:"kind,omitempty"`
	Path  string `json:"path,omitempty"`
	Title string `json:"title,omitempty"`
	// Write asks the client to write Content at Path (fs/write_text_file);
	// Ask asks its permission first (session/request_permission) and
	// writes the file itself when allowed.
	Write   bool   `json:"write,omitempty"`
	Ask     bool   `json:"ask,omitempty"`
	Content string `json:"content,omitempty"`
	// Plan sends a plan of these entries, the first In of them completed.
	Plan []string `json:"plan,omitempty"`
	Done int      `json:"done,omitempty"`
	// Raw sends this notification's update as it is.
	Raw json.RawMessage `json:"raw,omitempty"`
}

// RPCError is a JSON-RPC error.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

// Usage is ACP's (unstable) usage of a turn.
type Usage struct {
	InputTokens  int `json:"inputTokens"`
	OutputTokens int `json:"outputTokens"`
	TotalTokens  int `json:"totalTokens"`
}

// Main runs the agent on stdin and stdout with the Script in ScriptEnv.
func Main() int {
	var sc Script
	if err := json.Unmarshal([]byte(os.Getenv(ScriptEnv)), &sc); err != nil {
		fmt.Fprintln(os.Stderr, "fakeacp: bad script:", err)
		return 2
	}
	var log io.Writer = io.Discard
	if p := os.Getenv(LogEnv); p != "" {
		f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err == nil {
			defer f.Close()
			log = f
		}
	}
	fmt.Fprintf(log, "pid %d\n", os.Getpid())
	fmt.Fprintln(os.Stderr, "fakeacp: ready")
	Serve(sc, os.Stdin, os.Stdout, log)
	// Like claude-code-acp: stdin closing does not end it; the client
	// stops the process.
	if !sc.ExitAfterTurn {
		select {}
	}
	return 0
}

type message struct {
	JSONRPC string           `json:"jsonrpc"`
	ID      *json.RawMessage `json:"id,omitempty"`
	Method  string           `json:"method,omitempty"`
	Params  json.RawMessage  `json:"params,omitempty"`
	Result  json.RawMessage  `json:"result,omitempty"`
	Error   *RPCError        `json:"error,omitempty"`
}

type agent struct {
	sc  Script
	w   io.Writer
	log io.Writer

	mu      sync.Mutex
	nextID  int
	pending map[string]chan message
	cwd     string
	session string
	cancel  chan struct{}
	once    sync.Once
	turn    sync.WaitGroup
}

// Serve speaks the protocol on r and w until r ends and the turn is over;
// log gets one line per message received ("session/cancel").
func Serve(sc Script, r io.Reader, w io.Writer, log io.Writer) {
	a := &agent{sc: sc, w: w, log: log, pending: map[string]chan message{}, cancel: make(chan struct{})}
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		line, err := br.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			var m message
			if json.Unmarshal(line, &m) == nil {
				a.handle(m)
			}
		}
		if err != nil {
			break
		}
	}
	a.turn.Wait()
}

func (a *agent) send(m any) {
	b, _ := json.Marshal(m)
	a.mu.Lock()
	defer a.mu.Unlock()
	_, _ = a.w.Write(append(b, '\n'))
}

func (a *agent) reply(id *json.RawMessage, result any, e *RPCError) {
	m := map[string]any{"jsonrpc": "2.0", "id": id}
	if e != nil {
		m["error"] = e
	} else {
		m["result"] = result
	}
	a.send(m)
}

// call sends a request to the client and waits for its answer.
func (a *agent) call(method string, params any) message {
	a.mu.Lock()
	a.nextID++
	id := a.nextID
	ch := make(chan message, 1)
	a.pending[fmt.Sprint(id)] = ch
	a.mu.Unlock()
	a.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	select {
	case m := <-ch:
		return m
	case <-time.After(20 * time.Second):
		return message{Error: &RPCError{Code: -1, Message: "no answer"}}
	}
}

func (a *agent) update(u any) {
	a.send(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{"sessionId": a.session, "update": u}})
}

func (a *agent) handle(m message) {
	if m.Method == "" && m.ID != nil {
		a.mu.Lock()
		ch := a.pending[string(*m.ID)]
		delete(a.pending, string(*m.ID))
		a.mu.Unlock()
		if ch != nil {
			ch <- m
		}
		return
	}
	var p map[string]any
	_ = json.Unmarshal(m.Params, &p)
	switch m.Method {
	case "initialize":
		fmt.Fprintln(a.log, "initialize")
		a.reply(m.ID, map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{"loadSession": a.sc.LoadSession},
			"authMethods": []any{}, "agentInfo": map[string]any{"name": "fakeacp", "version": "1"}}, nil)
	case "session/new":
		a.cwd, _ = p["cwd"].(string)
		fmt.Fprintf(a.log, "session/new %s\n", a.cwd)
		if a.sc.NewSessionError != nil {
			a.reply(m.ID, nil, a.sc.NewSessionError)
			return
		}
		a.session = "sess-1"
		a.reply(m.ID, map[string]any{"sessionId": a.session}, nil)
	case "session/load":
		a.cwd, _ = p["cwd"].(string)
		a.session, _ = p["sessionId"].(string)
		fmt.Fprintf(a.log, "session/load %s\n", a.session)
		if a.sc.AfterLoad != nil {
			a.sc = *a.sc.AfterLoad
		}
		// The replay of the session's history, which is not this turn's.
		a.update(map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "an old message from before\n"}})
		a.reply(m.ID, map[string]any{}, nil)
	case "session/prompt":
		fmt.Fprintln(a.log, "session/prompt")
		a.turn.Add(1)
		go func() {
			defer a.turn.Done()
			a.prompt(m.ID)
		}()
	case "session/cancel":
		fmt.Fprintln(a.log, "session/cancel")
		if !a.sc.IgnoreCancel {
			a.once.Do(func() { close(a.cancel) })
		}
	default:
		fmt.Fprintf(a.log, "%s\n", m.Method)
		if m.ID != nil {
			a.reply(m.ID, nil, &RPCError{Code: -32601, Message: "Method not found"})
		}
	}
}

func (a *agent) abs(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(a.cwd, p)
}

func (a *agent) prompt(id *json.RawMessage) {
	for i, st := range a.sc.Steps {
		tid := fmt.Sprintf("call-%d", i)
		switch {
		case st.Text != "":
			a.update(map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": st.Text}})
		case len(st.Plan) > 0:
			var es []any
			for j, e := range st.Plan {
				status := "pending"
				if j < st.Done {
					status = "completed"
				} else if j == st.Done {
					status = "in_progress"
				}
				es = append(es, map[string]any{"content": e, "priority": "medium", "status": status})
			}
			a.update(map[string]any{"sessionUpdate": "plan", "entries": es})
		case st.Raw != nil:
			a.update(st.Raw)
		case st.Ask:
			path := a.abs(st.Path)
			tc := map[string]any{"toolCallId": tid, "title": "Write " + st.Path, "kind": "edit",
				"locations": []any{map[string]any{"path": path}}, "rawInput": map[string]any{"file_path": path}}
			a.update(merge(map[string]any{"sessionUpdate": "tool_call", "status": "pending"}, tc))
			ans := a.call("session/request_permission", map[string]any{"sessionId": a.session, "toolCall": tc,
				"options": []any{
					map[string]any{"optionId": "yes", "name": "Allow", "kind": "allow_once"},
					map[string]any{"optionId": "always", "name": "Always", "kind": "allow_always"},
					map[string]any{"optionId": "no", "name": "Reject", "kind": "reject_once"},
				}})
			var res struct {
				Outcome struct {
					Outcome  string `json:"outcome"`
					OptionID string `json:"optionId"`
				} `json:"outcome"`
			}
			_ = json.Unmarshal(ans.Result, &res)
			fmt.Fprintf(a.log, "permission %s %s\n", st.Path, res.Outcome.OptionID)
			if res.Outcome.OptionID == "yes" || res.Outcome.OptionID == "always" {
				_ = os.MkdirAll(filepath.Dir(path), 0o755)
				_ = os.WriteFile(path, []byte(st.Content), 0o644)
				a.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": tid, "status": "completed"})
			} else {
				a.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": tid, "status": "failed"})
			}
		case st.Write:
			path := a.abs(st.Path)
			a.update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": tid, "title": "WriteFile", "kind": "edit",
				"locations": []any{map[string]any{"path": path}}, "status": "in_progress"})
			ans := a.call("fs/write_text_file", map[string]any{"sessionId": a.session, "path": path, "content": st.Content})
			if ans.Error != nil {
				fmt.Fprintf(a.log, "write %s refused: %s\n", st.Path, ans.Error.Message)
			} else {
				fmt.Fprintf(a.log, "write %s ok\n", st.Path)
			}
		case st.Tool != "":
			u := map[string]any{"sessionUpdate": "tool_call", "toolCallId": tid, "title": st.Title, "kind": st.Kind, "status": "completed"}
			if st.Path != "" {
				u["locations"] = []any{map[string]any{"path": a.abs(st.Path)}}
			}
			a.update(u)
			a.update(u) // as claude-code-acp: twice per id
		}
	}
	if a.sc.Hang {
		<-a.cancel
		a.reply(id, map[string]any{"stopReason": "cancelled"}, nil)
		return
	}
	if a.sc.Error != nil {
		a.reply(id, nil, a.sc.Error)
		return
	}
	stop := a.sc.StopReason
	if stop == "" {
		stop = "end_turn"
	}
	res := map[string]any{"stopReason": stop}
	if a.sc.Usage != nil {
		res["usage"] = a.sc.Usage
	}
	a.reply(id, res, nil)
	if a.sc.ExitAfterTurn {
		os.Exit(0)
	}
}

func merge(a, b map[string]any) map[string]any {
	for k, v := range b {
		a[k] = v
	}
	return a
}

// ErrNoScript is returned by ScriptJSON for a script that cannot be encoded.
var ErrNoScript = errors.New("fakeacp: script cannot be encoded")

// ScriptJSON encodes sc for ScriptEnv.
func ScriptJSON(sc Script) string {
	b, err := json.Marshal(sc)
	if err != nil {
		panic(ErrNoScript)
	}
	return string(b)
}
