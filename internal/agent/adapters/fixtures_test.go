package adapters_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/agent/adapters"
	"github.com/autobuild-sh/autobuild/internal/agenttest"
	"github.com/autobuild-sh/autobuild/internal/failreport"
)

// fixture is one recorded run of a real agent CLI (testdata/agents,
// recorded against the mock model servers of internal/agenttest).
type fixture struct {
	stdout, stderr string
	exit           int
}

func loadFixture(t *testing.T, cli, name string) fixture {
	t.Helper()
	base := filepath.Join("..", "..", "..", "testdata", "agents", cli, name)
	read := func(ext string) string {
		b, err := os.ReadFile(base + ext)
		require.NoError(t, err, "the recorded fixture %s%s (record with go test ./internal/agenttest/ -run TestRecord -record)", base, ext)
		return string(b)
	}
	exit, err := strconv.Atoi(strings.TrimSpace(read(".exit")))
	require.NoError(t, err)
	return fixture{stdout: read(".stdout"), stderr: read(".stderr"), exit: exit}
}

// play feeds a fixture to the preset's parser as the engine does: stdout
// and stderr apart, line by line, then the exit status.
func play(t *testing.T, cli string, f fixture, prompt string) ([]agent.Note, agent.Outcome) {
	t.Helper()
	a, err := agent.Resolve(cli, nil)
	require.NoError(t, err)
	p := adapters.For(a).NewParser(prompt, "/work")
	var notes []agent.Note
	for _, l := range lines(f.stdout) {
		notes = append(notes, p.Stdout(l)...)
	}
	for _, l := range lines(f.stderr) {
		notes = append(notes, p.Stderr(l)...)
	}
	return notes, p.Finish(f.exit)
}

func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// Every recorded case of every CLI: what the parser makes of it. The
// result object is read only from the final message, and a failure's type
// comes from what the CLI said.
func TestParsersOnRecordedOutput(t *testing.T) {
	t.Parallel()
	type want struct {
		signal    failreport.Type // "" for none
		result    bool            // the final message holds the result object
		fix       string          // part of the Signal's fix
		tool      string          // a Note's text
		inputToks int64           // usage reported
	}
	cases := map[string]map[string]want{
		"claude": {
			"success":         {result: true, tool: "Write ", inputToks: 200},
			"no_result":       {tool: "Write ", inputToks: 200},
			"auth_401":        {signal: failreport.AgentSetup, fix: "ANTHROPIC_API_KEY"},
			"forbidden_403":   {signal: failreport.AgentSetup, fix: "--model"},
			"not_logged_in":   {signal: failreport.AgentSetup, fix: "/login"},
			"rate_429":        {signal: failreport.RateLimited},
			"overloaded":      {signal: failreport.RateLimited},
			"prompt_too_long": {signal: failreport.ContextExhausted},
			"root_refusal":    {signal: failreport.AgentSetup, fix: "IS_SANDBOX=1"},
		},
		"codex": {
			"success":         {result: true, tool: "Bash mkdir -p . && printf", inputToks: 200},
			"no_result":       {tool: "Bash mkdir -p .", inputToks: 200},
			"auth_401":        {signal: failreport.AgentSetup, fix: "CODEX_API_KEY"},
			"forbidden_403":   {signal: failreport.AgentSetup, fix: "-m MODEL"},
			"not_logged_in":   {signal: failreport.AgentSetup, fix: "codex login"},
			"rate_429":        {signal: failreport.RateLimited},
			"overloaded":      {signal: failreport.RateLimited},
			"prompt_too_long": {signal: failreport.ContextExhausted},
			"prompt_echo":     {signal: failreport.AgentSetup},
		},
		"gemini": {
			"success":         {result: true, tool: "Write hello.txt", inputToks: 210},
			"no_result":       {tool: "Write hello.txt", inputToks: 210},
			"auth_401":        {signal: failreport.AgentSetup, fix: "GEMINI_API_KEY"},
			"forbidden_403":   {signal: failreport.AgentSetup, fix: "GEMINI_API_KEY"},
			"not_logged_in":   {signal: failreport.AgentSetup, fix: "GEMINI_API_KEY"},
			"rate_429":        {signal: failreport.RateLimited},
			"overloaded":      {signal: failreport.RateLimited},
			"prompt_too_long": {signal: failreport.ContextExhausted},
			"untrusted":       {signal: failreport.AgentSetup, fix: "trust"},
		},
	}
	for cli, byCase := range cases {
		for name, w := range byCase {
			t.Run(cli+"/"+name, func(t *testing.T) {
				t.Parallel()
				prompt := agenttest.Prompt
				if strings.HasPrefix(name, "prompt_echo") {
					prompt = agenttest.EchoPrompt
				}
				notes, out := play(t, cli, loadFixture(t, cli, name), prompt)
				res, err := agent.ParseResult(out.Final)
				if w.result {
					require.NoError(t, err, "final message: %q", out.Final)
					require.Equal(t, "feat(hello): add hello.txt", res.CommitMessage)
				} else {
					require.True(t, errors.Is(err, agent.ErrNoResult), "no result object may be found: got %+v, %v (final %q)", res, err, out.Final)
				}
				if w.signal == "" {
					require.Nil(t, out.Signal, "said: %q", out.Said)
				} else {
					require.NotNil(t, out.Signal, "a %s signal; said: %q", w.signal, out.Said)
					require.Equal(t, w.signal, out.Signal.Type, "%+v", out.Signal)
					require.Contains(t, out.Signal.Fix, w.fix)
					require.NotContains(t, out.Signal.Message, "\x1b")
				}
				if w.tool != "" {
					require.True(t, hasNote(notes, w.tool), "a note starting %q in %+v", w.tool, notes)
				}
				if w.inputToks > 0 {
					require.NotNil(t, out.Usage)
					require.Equal(t, w.inputToks, out.Usage.InputTokens)
					require.Positive(t, out.Usage.OutputTokens)
					require.Positive(t, out.Usage.Turns)
				}
			})
		}
	}
}

func hasNote(notes []agent.Note, prefix string) bool {
	for _, n := range notes {
		if n.Tool != "" && strings.HasPrefix(n.Text, prefix) {
			return true
		}
	}
	return false
}

// codex's text mode echoes the whole prompt, example result object
// included, on stderr: nothing of it is the agent's result, nor its words.
func TestCodexPromptEchoIsNeverTheResult(t *testing.T) {
	t.Parallel()
	f := loadFixture(t, "codex", "prompt_echo_text")
	require.Contains(t, f.stderr, `"commit_message": "feat(scope): what this phase adds"`, "the recording shows the echo")
	notes, out := play(t, "codex", f, agenttest.EchoPrompt)
	_, err := agent.ParseResult(out.Final)
	require.ErrorIs(t, err, agent.ErrNoResult)
	for _, n := range notes {
		require.NotContains(t, n.Text, "what this phase adds", "an echoed prompt line is not shown as the agent's")
	}
	require.NotContains(t, out.Said, "what this phase adds")
	require.NotNil(t, out.Signal)
	require.Equal(t, failreport.AgentSetup, out.Signal.Type, "the 401 codex printed itself: %q", out.Said)
}

// claude's stream reports a refused key on each of its internal retries:
// the first one already stops it (the note carries the signal).
func TestClaudeRetryOfARefusedKeyStopsAtOnce(t *testing.T) {
	t.Parallel()
	a, err := agent.Resolve("claude", nil)
	require.NoError(t, err)
	p := adapters.For(a).NewParser("", "/work")
	notes := p.Stdout(`{"type":"system","subtype":"api_retry","attempt":1,"max_retries":10,"retry_delay_ms":600,"error_status":401,"error":"authentication_failed"}`)
	require.Len(t, notes, 1)
	require.NotNil(t, notes[0].Signal)
	require.Equal(t, failreport.AgentSetup, notes[0].Signal.Type)
	notes = p.Stdout(`{"type":"system","subtype":"api_retry","attempt":1,"max_retries":10,"retry_delay_ms":600,"error_status":529,"error":"overloaded"}`)
	require.Nil(t, notes[0].Signal, "an overloaded API is worth claude's own retries")
}

// Offline, codex reconnects forever; the third "waiting for network" stops
// it, as a setup problem that names the provider's base_url.
func TestCodexOfflineStops(t *testing.T) {
	t.Parallel()
	a, err := agent.Resolve("codex", nil)
	require.NoError(t, err)
	p := adapters.For(a).NewParser("", "/work")
	line := `{"type":"error","message":"Reconnecting... waiting for network (Connection failed: error sending request)"}`
	for i := 0; i < 2; i++ {
		require.Nil(t, p.Stdout(line)[0].Signal, "a short outage is codex's to ride out")
	}
	n := p.Stdout(line)
	require.NotNil(t, n[0].Signal)
	require.Equal(t, failreport.AgentSetup, n[0].Signal.Type)
	require.Contains(t, n[0].Signal.Fix, "base_url")
	require.Nil(t, p.Stdout(line)[0].Signal, "asked once")
	out := p.Finish(-1)
	require.Equal(t, failreport.AgentSetup, out.Signal.Type)
}

// codex retries a refused key five times at its defaults; the first
// reconnect that names the 401 stops it. A reconnect for anything else
// (a dropped stream) is left to codex.
func TestCodexRetryOfARefusedKeyStopsAtOnce(t *testing.T) {
	t.Parallel()
	a, err := agent.Resolve("codex", nil)
	require.NoError(t, err)
	p := adapters.For(a).NewParser("", "/work")
	n := p.Stdout(`{"type":"error","message":"Reconnecting... 1/5 (stream disconnected before completion)"}`)
	require.Nil(t, n[0].Signal)
	n = p.Stdout(`{"type":"error","message":"Reconnecting... 2/5 (unexpected status 401 Unauthorized: Incorrect API key provided: dummy.)"}`)
	require.NotNil(t, n[0].Signal)
	require.Equal(t, failreport.AgentSetup, n[0].Signal.Type)
	require.Contains(t, n[0].Signal.Fix, "CODEX_API_KEY")
}
