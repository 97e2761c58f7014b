package adapters

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/agenttest/fakeacp"
	"github.com/autobuild-sh/autobuild/internal/failreport"
)

const acpResult = "```json\n{\"phase_id\": \"1\", \"status\": \"complete\", \"tasks\": {\"total\": 1, \"completed\": 1}, \"commit_message\": \"feat: hello\", \"error\": null}\n```\n"

// acpRun is one conversation with the fake ACP agent, in this process.
type acpRun struct {
	notes []agent.Note
	logs  []string
	agent string // what the fake agent received
	out   agent.Outcome
	code  int
	dir   string
}

func (r acpRun) texts() string {
	var b strings.Builder
	for _, n := range r.notes {
		if n.Tool != "" {
			b.WriteString("→ ")
		}
		b.WriteString(n.Text + "\n")
	}
	return b.String()
}

func talkACP(t *testing.T, sc fakeacp.Script, cfg ACPConfig) acpRun {
	t.Helper()
	if cfg.Dir == "" {
		cfg.Dir = t.TempDir()
	}
	if cfg.Prompt == "" {
		cfg.Prompt = "Create hello.txt."
	}
	var mu sync.Mutex
	run := acpRun{dir: cfg.Dir}
	cfg.Show = func(n agent.Note) { mu.Lock(); run.notes = append(run.notes, n); mu.Unlock() }
	cfg.Log = func(s string) { mu.Lock(); run.logs = append(run.logs, s); mu.Unlock() }
	s := NewACPSession(cfg)
	toAgentR, toAgentW := io.Pipe()
	fromAgentR, fromAgentW := io.Pipe()
	var agentLog strings.Builder
	served := make(chan struct{})
	go func() {
		defer close(served)
		fakeacp.Serve(sc, toAgentR, fromAgentW, &agentLog)
		fromAgentW.Close()
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s.Run(ctx, toAgentW, fromAgentR)
	toAgentW.Close()
	<-served
	run.out, run.code = s.Outcome(0)
	run.agent = agentLog.String()
	return run
}

func TestACPSuccessShowsToolsPlanAndMessage(t *testing.T) {
	sc := fakeacp.Script{
		Steps: []fakeacp.Step{
			{Text: "Let me look.\nFirst"},
			{Tool: "read_file", Kind: "read", Path: "go.mod", Title: "ReadFile"},
			{Plan: []string{"write hello", "check"}, Done: 1},
			{Write: true, Path: "hello.txt", Content: "hello\n"},
			{Ask: true, Path: "sub/two.txt", Content: "two\n"},
			{Tool: "shell", Kind: "execute", Title: "go test ./..."},
			// claude-code-acp: the call announced empty, then again with its input.
			{Raw: []byte(`{"sessionUpdate":"tool_call","toolCallId":"t9","title":"Write","kind":"edit","rawInput":{}}`)},
			{Raw: []byte(`{"sessionUpdate":"tool_call","toolCallId":"t9","title":"Write","kind":"edit","rawInput":{"file_path":"notes/a.md","content":"x"}}`)},
			{Text: "I created hello.txt.\n\n" + acpResult},
		},
		Usage: &fakeacp.Usage{InputTokens: 1200, OutputTokens: 80, TotalTokens: 1280},
	}
	run := talkACP(t, sc, ACPConfig{})
	require.Equal(t, 0, run.code, run.texts())
	b, err := os.ReadFile(filepath.Join(run.dir, "hello.txt"))
	require.NoError(t, err)
	assert.Equal(t, "hello\n", string(b))
	b, err = os.ReadFile(filepath.Join(run.dir, "sub", "two.txt"))
	require.NoError(t, err, "a permission inside the worktree is allowed")
	assert.Equal(t, "two\n", string(b))
	texts := run.texts()
	for _, want := range []string{"Let me look.\n", "First\n", "→ Read go.mod\n", "→ Plan 1/2 done: check\n", "→ Write hello.txt\n",
		"→ Write sub/two.txt\n", "→ Bash go test ./...\n", "→ Write notes/a.md\n", "I created hello.txt.\n"} {
		assert.Contains(t, texts, want)
	}
	assert.Equal(t, 1, strings.Count(texts, "→ Bash"), "a tool call sent twice is shown once")
	assert.Equal(t, 1, strings.Count(texts, "→ Write notes"), "a tool call sent twice is shown once")
	res, err := agent.ParseResult(run.out.Final)
	require.NoError(t, err, run.out.Final)
	assert.Equal(t, "complete", res.Status)
	assert.NotContains(t, run.out.Final, "Let me look", "the final message is what follows the last tool call")
	require.NotNil(t, run.out.Usage)
	assert.EqualValues(t, 1200, run.out.Usage.InputTokens)
	assert.EqualValues(t, 80, run.out.Usage.OutputTokens)
	assert.Empty(t, run.out.Session, "no session is kept for an agent that cannot load one")
	assert.Contains(t, run.agent, "session/new "+run.dir)
	assert.Contains(t, run.agent, "permission sub/two.txt yes")
}

func TestACPRefusesWritesOutsideTheWorktree(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "wt")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	// A link inside the worktree to a folder outside it.
	require.NoError(t, os.Symlink(parent, filepath.Join(dir, "up")))
	sc := fakeacp.Script{Steps: []fakeacp.Step{
		{Write: true, Path: "../escape.txt", Content: "x"},
		{Write: true, Path: "up/link.txt", Content: "x"},
		{Ask: true, Path: filepath.Join(parent, "asked.txt"), Content: "x"},
		{Write: true, Path: "inside.txt", Content: "ok"},
		{Text: acpResult},
	}}
	run := talkACP(t, sc, ACPConfig{Dir: dir})
	require.Equal(t, 0, run.code)
	for _, f := range []string{"escape.txt", "link.txt", "asked.txt"} {
		assert.NoFileExists(t, filepath.Join(parent, f))
	}
	assert.FileExists(t, filepath.Join(dir, "inside.txt"))
	assert.Contains(t, run.agent, "write ../escape.txt refused")
	assert.Contains(t, run.agent, "write up/link.txt refused")
	assert.Contains(t, run.agent, "permission "+filepath.Join(parent, "asked.txt")+" no")
	logs := strings.Join(run.logs, "\n")
	assert.Contains(t, logs, "refused to write")
	assert.Contains(t, logs, "outside the phase's worktree")
	assert.Contains(t, run.texts(), "autobuild refused")
}

func TestACPErrorsAreClassified(t *testing.T) {
	cases := []struct {
		name string
		sc   fakeacp.Script
		want failreport.Type
	}{
		{"auth_required", fakeacp.Script{NewSessionError: &fakeacp.RPCError{Code: -32000, Message: "Authentication required"}}, failreport.AgentSetup},
		{"401", fakeacp.Script{Error: &fakeacp.RPCError{Code: -32603, Message: "Internal error", Data: map[string]any{"details": "[API Error: 401 Unauthorized] invalid api key"}}}, failreport.AgentSetup},
		{"429", fakeacp.Script{Error: &fakeacp.RPCError{Code: -32603, Message: "Request failed with status code 429"}}, failreport.RateLimited},
		{"prompt too long", fakeacp.Script{Error: &fakeacp.RPCError{Code: -32603, Message: "prompt is too long: 210000 tokens > 200000 maximum"}}, failreport.ContextExhausted},
		{"max_tokens", fakeacp.Script{StopReason: "max_tokens"}, failreport.ContextExhausted},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run := talkACP(t, c.sc, ACPConfig{Agent: "gemini", Fixes: geminiFixes})
			assert.Equal(t, 1, run.code)
			require.NotNil(t, run.out.Signal, run.out.Said)
			assert.Equal(t, c.want, run.out.Signal.Type, run.out.Signal.Message)
			if c.want == failreport.AgentSetup {
				assert.Equal(t, geminiFixes[setupKey] != "", run.out.Signal.Fix != "")
			}
			assert.NotEmpty(t, run.out.Said)
		})
	}
}

// copilot ends its turn normally with the API's error as its message.
func TestACPErrorAsFinalMessage(t *testing.T) {
	run := talkACP(t, fakeacp.Script{Steps: []fakeacp.Step{{Text: "Error: Failed to get response from the AI model; retried 5 times. Last error: 429 Rate limit reached"}}}, ACPConfig{})
	assert.Equal(t, 1, run.code)
	require.NotNil(t, run.out.Signal)
	assert.Equal(t, failreport.RateLimited, run.out.Signal.Type)

	run = talkACP(t, fakeacp.Script{Steps: []fakeacp.Step{{Text: "Info: Request failed due to a transient API error. Retrying..."},
		{Text: "Error: Failed to get response from the AI model; retried 5 times. Last error: 401 Unauthorized"}}}, ACPConfig{})
	require.NotNil(t, run.out.Signal)
	assert.Equal(t, failreport.AgentSetup, run.out.Signal.Type)

	// A result object wins over an error line before it.
	run = talkACP(t, fakeacp.Script{Steps: []fakeacp.Step{{Text: "Error: 401 once\n" + acpResult}}}, ACPConfig{})
	assert.Equal(t, 0, run.code)
	assert.Nil(t, run.out.Signal)
}

func TestACPRefusalIsAFailure(t *testing.T) {
	run := talkACP(t, fakeacp.Script{StopReason: "refusal", Steps: []fakeacp.Step{{Text: "No."}}}, ACPConfig{})
	assert.Equal(t, 1, run.code)
	assert.Nil(t, run.out.Signal)
	assert.Contains(t, run.out.Said, "refusal")
}

func TestACPLoadsTheSessionItContinues(t *testing.T) {
	after := fakeacp.Script{Steps: []fakeacp.Step{{Text: "Continuing.\n" + acpResult}}}
	run := talkACP(t, fakeacp.Script{LoadSession: true, AfterLoad: &after}, ACPConfig{Load: "sess-7"})
	require.Equal(t, 0, run.code)
	assert.Contains(t, run.agent, "session/load sess-7")
	assert.NotContains(t, run.agent, "session/new")
	assert.NotContains(t, run.out.Final, "an old message", "the replayed history is not this turn's message")
	assert.Equal(t, "sess-7", run.out.Session, "a loadable session is kept")

	// An agent that cannot load sessions starts a new one.
	run = talkACP(t, fakeacp.Script{Steps: []fakeacp.Step{{Text: acpResult}}}, ACPConfig{Load: "sess-7"})
	assert.Contains(t, run.agent, "session/new")
	assert.NotContains(t, run.agent, "session/load")
}

func TestACPCancelEndsTheTurn(t *testing.T) {
	dir := t.TempDir()
	var logs []string
	var mu sync.Mutex
	s := NewACPSession(ACPConfig{Dir: dir, Prompt: "p", Log: func(l string) { mu.Lock(); logs = append(logs, l); mu.Unlock() }})
	toAgentR, toAgentW := io.Pipe()
	fromAgentR, fromAgentW := io.Pipe()
	var agentLog strings.Builder
	go func() {
		fakeacp.Serve(fakeacp.Script{Hang: true, Steps: []fakeacp.Step{{Text: "thinking"}}}, toAgentR, fromAgentW, &agentLog)
		fromAgentW.Close()
	}()
	go s.Run(context.Background(), toAgentW, fromAgentR)
	require.Eventually(t, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.started && s.final != ""
	}, 5*time.Second, 10*time.Millisecond)
	start := time.Now()
	s.Cancel()
	assert.Less(t, time.Since(start), ACPCancelWait)
	<-s.Done()
	toAgentW.Close()
	out, code := s.Outcome(0)
	assert.Equal(t, 1, code)
	assert.Contains(t, out.Said, "cancelled")
	mu.Lock()
	assert.Contains(t, strings.Join(logs, "\n"), "session/cancel")
	mu.Unlock()
}

func TestResolveACP(t *testing.T) {
	a, err := agent.Resolve("acp:gemini --acp -m flash", nil)
	require.NoError(t, err)
	assert.True(t, a.ACP)
	assert.Equal(t, "gemini", a.Name)
	assert.Equal(t, []string{"gemini", "--acp", "-m", "flash"}, a.Args)
	assert.Equal(t, "acp:gemini --acp -m flash", a.Spec)
	assert.True(t, a.RequiresResult)
	assert.NotNil(t, ACPAdapterFor(a).check, "gemini's login check applies")

	a, err = agent.Resolve("ACP:/opt/goose acp", nil)
	require.NoError(t, err)
	assert.Equal(t, "goose", a.Name)
	assert.Nil(t, ACPAdapterFor(a).check)

	_, err = agent.Resolve("acp:", nil)
	assert.Error(t, err)

	for name, args := range map[string][]string{"qwen": {"qwen", "--acp"}, "opencode": {"opencode", "acp"}, "copilot": {"copilot", "--acp"}} {
		a, err := agent.Resolve(name+" --model m", nil)
		require.NoError(t, err)
		assert.True(t, a.ACP, name)
		assert.Equal(t, append(args, "--model", "m"), a.Args)
		assert.Equal(t, name, a.Name)
		assert.NotNil(t, For(a))
	}

	g, err := agent.Resolve("gemini -m x", nil)
	require.NoError(t, err)
	assert.False(t, g.ACP)
	g, err = g.ViaACP()
	require.NoError(t, err)
	g = g.WithConfig([]string{"--debug"}, nil)
	assert.Equal(t, []string{"gemini", "--acp", "--debug", "-m", "x"}, g.Args)
	assert.True(t, CanResume(g))
	assert.Equal(t, g.Args, ResumeArgs(g, "s1"))

	aider, _ := agent.Resolve("aider", nil)
	_, err = aider.ViaACP()
	assert.Error(t, err)
}

func TestACPPreflight(t *testing.T) {
	sys := func(env map[string]string) func(agent.Agent) agent.System {
		return func(agent.Agent) agent.System {
			return agent.System{Getenv: func(k string) string { return env[k] }, Home: "/nonexistent", Dir: "/nonexistent",
				Exists: func(string) bool { return false }, ReadFile: func(string) ([]byte, error) { return nil, os.ErrNotExist }}
		}
	}
	found := func(string) (string, error) { return "/bin/x", nil }
	missing := func(string) (string, error) { return "", os.ErrNotExist }
	for _, name := range []string{"qwen", "opencode", "copilot", "acp:gemini --acp", "acp:claude-code-acp"} {
		a, err := agent.Resolve(name, nil)
		require.NoError(t, err)
		probs, err := Preflight([]agent.Agent{a}, sys(nil), found)
		require.NoError(t, err)
		require.Len(t, probs, 1, name)
		assert.Regexp(t, "not logged in|no auth method|no ANTHROPIC_API_KEY|not set", probs[0].Problem, name)
		probs, err = Preflight([]agent.Agent{a}, sys(nil), missing)
		require.NoError(t, err)
		require.Len(t, probs, 1, name)
		assert.Contains(t, probs[0].Problem, "is not installed", name)
		assert.Contains(t, probs[0].Fix, "npm install -g", name)
	}
	for name, env := range map[string]map[string]string{"qwen": {"OPENAI_API_KEY": "k"}, "opencode": {"ANTHROPIC_API_KEY": "k"}, "copilot": {"GH_TOKEN": "t"}} {
		a, _ := agent.Resolve(name, nil)
		probs, err := Preflight([]agent.Agent{a}, sys(env), found)
		require.NoError(t, err)
		assert.Empty(t, probs, name)
	}
	// claude-code-acp asks for permissions: root needs no IS_SANDBOX.
	a, _ := agent.Resolve("acp:claude-code-acp", nil)
	probs, _ := Preflight([]agent.Agent{a}, func(agent.Agent) agent.System {
		s := sys(map[string]string{"ANTHROPIC_API_KEY": "k"})(a)
		s.UID = 0
		return s
	}, found)
	assert.Empty(t, probs)
}
