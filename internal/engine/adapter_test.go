package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/budget"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// fixtureDir holds the recorded output of the real agent CLIs.
var fixtureDir, _ = filepath.Abs(filepath.Join("..", "..", "testdata", "agents"))

// fakePreset is a preset agent whose program is a script standing in for
// the real CLI: the adapter (its parser) is the real one.
func fakePreset(t *testing.T, preset, script string) agent.Agent {
	t.Helper()
	a, err := agent.Resolve(preset, nil)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "fake-"+preset)
	require.NoError(t, os.WriteFile(path, []byte("#!/bin/sh\n"+script+"\n"), 0o755))
	a.Args = []string{path}
	return a
}

// replay is a script that plays a recorded case of a CLI: its stdout, its
// stderr and its exit status.
func replay(cli, name string) string {
	base := filepath.Join(fixtureDir, cli, name)
	return `cat "` + base + `.stdout"; cat "` + base + `.stderr" >&2; exit $(cat "` + base + `.exit")`
}

func runPreset(t *testing.T, a agent.Agent, cfg func(*Config)) (Result, string, *events) {
	t.Helper()
	repo := gitRepo(t, onePhase)
	pl, err := plan.Parse(filepath.Join(repo, "plan.md"), []byte(onePhase))
	require.NoError(t, err)
	sink := &events{}
	c := Config{Dir: repo, Plan: pl, CommitMode: state.CommitAuto, Agents: []agent.Agent{a},
		Grace: time.Second, Sink: sink, Backoff: func(int) time.Duration { return 0 }}
	if cfg != nil {
		cfg(&c)
	}
	res, err := Run(context.Background(), c)
	require.NoError(t, err)
	return res, repo, sink
}

func (e *events) of(kind event.Kind) []event.Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []event.Event
	for _, ev := range e.list {
		if ev.Kind == kind {
			out = append(out, ev)
		}
	}
	return out
}

// A claude run as recorded: its tool call is shown as one line, its result
// object read from its final message lands the phase, and its tokens and
// cost are recorded on the attempt and in the events.
func TestPresetSuccessShowsToolCallsAndUsage(t *testing.T) {
	t.Parallel()
	a := fakePreset(t, "claude", "printf 'hello\\n' > hello.txt\n"+replay("claude", "success"))
	res, repo, sink := runPreset(t, a, nil)
	require.Equal(t, state.RunComplete, res.Status, res.Reason)

	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Equal(t, "feat(hello): add hello.txt", strings.Split(p.Commit.Message, "\n")[0])
	u := p.Attempts[0].Usage
	require.NotNil(t, u)
	require.Equal(t, int64(200), u.InputTokens)
	require.Equal(t, 2, u.Turns)
	require.InDelta(t, 0.0016, u.CostUSD, 1e-9)

	actions := sink.of(event.AgentAction)
	require.Len(t, actions, 1)
	require.Equal(t, "Write", actions[0].Tool)
	require.True(t, strings.HasPrefix(actions[0].Line, "Write ") && strings.HasSuffix(actions[0].Line, "hello.txt"), actions[0].Line)
	require.NotNil(t, sink.of(event.PhaseCompleted)[0].Usage)
	require.Equal(t, int64(200), sink.of(event.RunComplete)[0].Usage.InputTokens)

	log, err := os.ReadFile(filepath.Join(repo, p.Attempts[0].LogPath))
	require.NoError(t, err)
	require.Contains(t, string(log), "→ Write ")
	require.Contains(t, string(log), "# autobuild: usage: 200 in, 40 out")
	require.NotContains(t, string(log), `{"type":"system"`, "the raw stream goes to its own file")
	stream, err := os.ReadFile(filepath.Join(repo, strings.TrimSuffix(p.Attempts[0].LogPath, ".log")+".stream"))
	require.NoError(t, err)
	require.Contains(t, string(stream), `{"type":"system"`)
}

// codex echoing its prompt (with the prompt's example result object) on
// stderr, then exiting 0 with nothing on stdout: nothing says complete,
// so nothing is committed.
func TestPresetPromptEchoIsNeverCommitted(t *testing.T) {
	t.Parallel()
	echo := filepath.Join(fixtureDir, "codex", "prompt_echo_text.stderr")
	a := fakePreset(t, "codex", `echo work > work.txt; cat "`+echo+`" >&2; exit 0`)
	res, repo, _ := runPreset(t, a, nil)
	require.Equal(t, state.RunHalted, res.Status)
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Equal(t, failreport.ParseError, p.Error.Type)
	require.Nil(t, p.Commit)
	require.Equal(t, "1", runGit(t, repo, "rev-list", "--count", "HEAD"), "no commit")

	// And the recorded failure itself: a 401, halted at once, no retry.
	a = fakePreset(t, "codex", replay("codex", "prompt_echo_text"))
	res, repo, _ = runPreset(t, a, nil)
	require.Equal(t, state.RunHalted, res.Status)
	p, err = state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Equal(t, failreport.AgentSetup, p.Error.Type, "codex's own 401 line, after the echo, is what it said: %+v", p.Error)
	require.Len(t, p.Attempts, 1, "no retry")
	require.NotContains(t, p.Error.Message, "what this phase adds")
}

// A 401 mid-run halts at once, without the retry, with the fix.
func TestPresetAuthFailureHaltsWithoutRetry(t *testing.T) {
	t.Parallel()
	for cli, name := range map[string]string{"claude": "auth_401", "codex": "auth_401", "gemini": "auth_401"} {
		t.Run(cli, func(t *testing.T) {
			t.Parallel()
			res, repo, _ := runPreset(t, fakePreset(t, cli, replay(cli, name)), nil)
			require.Equal(t, state.RunHalted, res.Status)
			p, err := state.Open(repo).LoadPhase("1")
			require.NoError(t, err)
			require.Len(t, p.Attempts, 1, "no retry")
			require.Equal(t, failreport.AgentSetup, p.Error.Type, "%+v", p.Error)
			require.False(t, p.Error.Retryable)
			require.NotEmpty(t, p.Error.Fix)
			require.Equal(t, p.Error.Fix, p.Error.SuggestedActions[0])
		})
	}
}

// claude retries a refused key ten times over minutes: the first retry
// event in its stream stops it.
func TestPresetStopsAnAgentRetryingARefusedKey(t *testing.T) {
	t.Parallel()
	a := fakePreset(t, "claude", `echo '{"type":"system","subtype":"init","session_id":"s","model":"m","apiKeySource":"ANTHROPIC_API_KEY"}'
echo '{"type":"system","subtype":"api_retry","attempt":1,"max_retries":10,"retry_delay_ms":30000,"error_status":401,"error":"authentication_failed"}'
exec sleep 60`)
	started := time.Now()
	res, repo, _ := runPreset(t, a, nil)
	require.Less(t, time.Since(started), 30*time.Second, "stopped, not waited for")
	require.Equal(t, state.RunHalted, res.Status)
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Len(t, p.Attempts, 1)
	require.Equal(t, failreport.AgentSetup, p.Error.Type)
	require.Contains(t, p.Error.Fix, "ANTHROPIC_API_KEY")
}

// claude refusing to run as root: agent_setup naming IS_SANDBOX=1, not a
// parse_error retried.
func TestPresetRootRefusal(t *testing.T) {
	t.Parallel()
	res, repo, _ := runPreset(t, fakePreset(t, "claude", replay("claude", "root_refusal")), nil)
	require.Equal(t, state.RunHalted, res.Status)
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Len(t, p.Attempts, 1)
	require.Equal(t, failreport.AgentSetup, p.Error.Type)
	require.Contains(t, p.Error.Fix, "IS_SANDBOX=1")
}

// An agent that keeps reporting tool calls is never idle-killed, though it
// prints no text for longer than the idle limit.
func TestPresetToolCallsCountAsActivity(t *testing.T) {
	t.Parallel()
	a := fakePreset(t, "claude", `printf 'hello\n' > hello.txt
for i in 1 2 3 4 5 6 7 8; do
  echo '{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash","input":{"command":"go test ./..."}}]},"parent_tool_use_id":null}'
  sleep 0.1
done
`+replay("claude", "success"))
	res, _, sink := runPreset(t, a, func(c *Config) { c.IdleTimeout = 500 * time.Millisecond })
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	require.GreaterOrEqual(t, len(sink.of(event.AgentAction)), 8)
	require.Equal(t, "Bash go test ./...", sink.of(event.AgentAction)[0].Line)
}

// A claude run whose stream reports its quota (a rate_limit_event line
// before the recorded run): the run hears it as an agent_quota event,
// and the attempt log says it; nothing of it is an output line.
func TestClaudeRateLimitEventReachesTheRun(t *testing.T) {
	t.Parallel()
	line := `{"type":"rate_limit_event","rate_limit_info":{"status":"allowed_warning","resetsAt":4102444800,"rateLimitType":"five_hour","utilization":0.91}}`
	a := fakePreset(t, "claude", "echo '"+line+"'\nprintf 'hello\\n' > hello.txt\n"+replay("claude", "success"))
	res, repo, sink := runPreset(t, a, func(c *Config) { c.MaxParallel = 4 })
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	q := sink.of(event.AgentQuota)
	require.Len(t, q, 1)
	require.Equal(t, "claude", q[0].Agent)
	require.Equal(t, "allowed_warning", q[0].Quota.Status)
	require.Equal(t, 2, q[0].Quota.Parallel, "half of --max-parallel 4")
	for _, o := range sink.of(event.PhaseOutput) {
		require.NotContains(t, o.Line, "rate_limit")
	}
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	log, err := os.ReadFile(filepath.Join(repo, p.Attempts[0].LogPath))
	require.NoError(t, err)
	require.Contains(t, string(log), "# autobuild: claude quota: five_hour allowed_warning, 91% used, resets 2100-01-01T00:00:00Z")
}

// codex names no model in its stream: the one given in --agent prices its
// tokens, so a budget counts them.
func TestCodexTokensArePricedByTheChosenModel(t *testing.T) {
	t.Parallel()
	a := fakePreset(t, "codex", "printf 'hello\\n' > hello.txt\n"+replay("codex", "success"))
	a.Extra = []string{"-m", "gpt-5-codex"}
	res, repo, _ := runPreset(t, a, nil)
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	u := p.Attempts[0].Usage
	require.Equal(t, "gpt-5-codex", u.Model)
	usd, priced := budget.Price(u)
	require.True(t, priced)
	require.Positive(t, usd)
}
