package engine

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/agenttest/fakeacp"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// fakeACPChild makes the test binary the fake ACP agent (TestMain).
const fakeACPChild = "AUTOBUILD_ENGINE_TEST_FAKE_ACP"

func TestMain(m *testing.M) {
	if os.Getenv(fakeACPChild) == "1" {
		os.Exit(fakeacp.Main())
	}
	os.Exit(m.Run())
}

const acpResultText = "I created hello.txt.\n\n```json\n{\"phase_id\": \"1\", \"status\": \"complete\", \"tasks\": {\"total\": 1, \"completed\": 1}, " +
	"\"commit_message\": \"feat(hello): add hello.txt\", \"error\": null}\n```\n"

// fakeACP is an ACP agent (the test binary playing sc) and the file it
// logs what it received to.
func fakeACP(t *testing.T, sc fakeacp.Script) (agent.Agent, string) {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), "agent.log")
	a, err := agent.Resolve("acp:"+os.Args[0]+" -test.run=^$", nil)
	require.NoError(t, err)
	a.Env = []string{fakeACPChild + "=1", fakeacp.ScriptEnv + "=" + fakeacp.ScriptJSON(sc), fakeacp.LogEnv + "=" + logPath}
	return a, logPath
}

// agentPIDs are the fake agent's processes, from its log.
func agentPIDs(t *testing.T, logPath string) []int {
	t.Helper()
	b, _ := os.ReadFile(logPath)
	var out []int
	for _, l := range strings.Split(string(b), "\n") {
		if p, ok := strings.CutPrefix(l, "pid "); ok {
			n, err := strconv.Atoi(p)
			require.NoError(t, err)
			out = append(out, n)
		}
	}
	return out
}

func requireGone(t *testing.T, pids []int) {
	t.Helper()
	require.NotEmpty(t, pids)
	for _, pid := range pids {
		require.Eventually(t, func() bool { return syscall.Kill(pid, 0) != nil }, 5*time.Second, 20*time.Millisecond, "agent process %d is left", pid)
	}
}

// An ACP agent's turn: its tool calls and plan are the live → lines, its
// write goes through the client into the worktree, its result object
// lands the phase, its usage is recorded, and its process (which keeps
// running after the turn, as ACP agents do) is stopped.
func TestACPAgentCompletesAPhase(t *testing.T) {
	t.Parallel()
	a, agentLog := fakeACP(t, fakeacp.Script{
		Steps: []fakeacp.Step{
			{Plan: []string{"write hello.txt", "report"}},
			{Write: true, Path: "hello.txt", Content: "hello\n"},
			{Tool: "shell", Kind: "execute", Title: "cat hello.txt"},
			{Text: acpResultText},
		},
		Usage: &fakeacp.Usage{InputTokens: 500, OutputTokens: 50, TotalTokens: 550},
	})
	res, repo, sink := runPreset(t, a, nil)
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	requireGone(t, agentPIDs(t, agentLog))

	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Equal(t, "feat(hello): add hello.txt", strings.Split(p.Commit.Message, "\n")[0])
	require.Equal(t, "hello\n", runGit(t, repo, "show", "HEAD:hello.txt")+"\n")
	u := p.Attempts[0].Usage
	require.NotNil(t, u)
	require.Equal(t, int64(500), u.InputTokens)

	var lines []string
	for _, ev := range sink.of(event.AgentAction) {
		lines = append(lines, ev.Line)
	}
	require.Equal(t, []string{"Plan 0/2 done: write hello.txt", "Write hello.txt", "Bash cat hello.txt"}, lines)
	log, err := os.ReadFile(filepath.Join(repo, p.Attempts[0].LogPath))
	require.NoError(t, err)
	require.Contains(t, string(log), "→ Write hello.txt")
	require.Contains(t, string(log), "the agent's turn ended; its process was stopped")
	stream, err := os.ReadFile(filepath.Join(repo, strings.TrimSuffix(p.Attempts[0].LogPath, ".log")+".stream"))
	require.NoError(t, err)
	require.Contains(t, string(stream), `"session/update"`)
	agentSaw, _ := os.ReadFile(agentLog)
	wt := filepath.Join(repo, ".autobuild", "worktrees")
	require.Contains(t, string(agentSaw), "session/new "+wt, "the session's cwd is the phase's worktree")
}

// Ctrl-C: session/cancel first, then the process group is stopped; no
// process is left, even from an agent that ignores the cancel.
func TestACPAgentInterruptCancelsTheTurn(t *testing.T) {
	t.Parallel()
	for _, ignore := range []bool{false, true} {
		t.Run("ignore="+strconv.FormatBool(ignore), func(t *testing.T) {
			t.Parallel()
			a, agentLog := fakeACP(t, fakeacp.Script{Hang: true, IgnoreCancel: ignore, Steps: []fakeacp.Step{{Text: "working\n"}}})
			repo := gitRepo(t, onePhase)
			pl, err := plan.Parse(filepath.Join(repo, "plan.md"), []byte(onePhase))
			require.NoError(t, err)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() {
				for ctx.Err() == nil {
					if b, _ := os.ReadFile(agentLog); strings.Contains(string(b), "session/prompt") {
						time.Sleep(100 * time.Millisecond)
						cancel()
						return
					}
					time.Sleep(20 * time.Millisecond)
				}
			}()
			res, err := Run(ctx, Config{Dir: repo, Plan: pl, CommitMode: state.CommitAuto, Agents: []agent.Agent{a},
				Grace: time.Second, Sink: &events{}, Backoff: func(int) time.Duration { return 0 }})
			require.NoError(t, err)
			require.Equal(t, state.RunInterrupted, res.Status)
			b, _ := os.ReadFile(agentLog)
			require.Contains(t, string(b), "session/cancel")
			requireGone(t, agentPIDs(t, agentLog))
		})
	}
}

// A timeout sends session/cancel too before the process group is stopped.
func TestACPAgentTimeoutCancelsTheTurn(t *testing.T) {
	t.Parallel()
	a, agentLog := fakeACP(t, fakeacp.Script{Hang: true, Steps: []fakeacp.Step{{Text: "working\n"}}})
	res, repo, _ := runPreset(t, a, func(c *Config) {
		c.PhaseTimeout = 3 * time.Second
		c.Sleep = func(context.Context, time.Duration) {}
	})
	require.NotEqual(t, state.RunComplete, res.Status)
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Equal(t, failreport.Timeout, p.Attempts[0].Error.Type)
	b, _ := os.ReadFile(agentLog)
	require.Contains(t, string(b), "session/cancel")
	requireGone(t, agentPIDs(t, agentLog))
}

// A prompt too long is context_exhausted; the retry continues the same
// session with session/load, since the agent advertises it.
func TestACPAgentContinuesItsSessionAfterContextExhausted(t *testing.T) {
	t.Parallel()
	after := fakeacp.Script{Steps: []fakeacp.Step{{Write: true, Path: "hello.txt", Content: "hello\n"}, {Text: acpResultText}}}
	a, agentLog := fakeACP(t, fakeacp.Script{LoadSession: true, AfterLoad: &after,
		Error: &fakeacp.RPCError{Code: -32603, Message: "Internal error", Data: map[string]any{"details": "prompt is too long: 250000 tokens > 200000 maximum"}}})
	res, repo, _ := runPreset(t, a, nil)
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Len(t, p.Attempts, 2)
	require.Equal(t, failreport.ContextExhausted, p.Attempts[0].Error.Type)
	require.Equal(t, "sess-1", p.Attempts[0].Session)
	b, _ := os.ReadFile(agentLog)
	require.Contains(t, string(b), "session/load sess-1")
	requireGone(t, agentPIDs(t, agentLog))
}

// The failures an ACP agent reports as errors are classified from them;
// a turn without a result object is a parse_error.
func TestACPAgentFailures(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		sc   fakeacp.Script
		want failreport.Type
	}{
		"auth":      {fakeacp.Script{NewSessionError: &fakeacp.RPCError{Code: -32000, Message: "Authentication required"}}, failreport.AgentSetup},
		"429":       {fakeacp.Script{Error: &fakeacp.RPCError{Code: -32603, Message: "429 Too Many Requests: rate limit exceeded"}}, failreport.RateLimited},
		"no result": {fakeacp.Script{Steps: []fakeacp.Step{{Text: "I did it."}}}, failreport.ParseError},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			a, agentLog := fakeACP(t, c.sc)
			res, repo, _ := runPreset(t, a, func(cfg *Config) {
				clock := newFakeClock()
				cfg.Backoff, cfg.Now, cfg.Sleep, cfg.NoJitter = nil, clock.now, clock.sleep, true
			})
			require.NotEqual(t, state.RunComplete, res.Status)
			p, err := state.Open(repo).LoadPhase("1")
			require.NoError(t, err)
			require.NotEmpty(t, p.Attempts)
			require.Equal(t, c.want, p.Attempts[0].Error.Type, "%+v", p.Attempts[0].Error)
			requireGone(t, agentPIDs(t, agentLog))
		})
	}
}
