package agenttest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/agenttest/mockapi"
	"github.com/autobuild-sh/autobuild/internal/engine"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/schedule"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// helloPlan is one phase whose gate checks the file the mock's scripted
// model writes.
const helloPlan = "# Hello\n\n| Phase | Name | Depends On |\n|---|---|---|\n| 1 | Hello | - |\n\n" +
	"## Phase 1: Hello\n\n- [ ] Create hello.txt containing the line hello\n\n## Quality Gates\n\n- test: `grep -q hello hello.txt`\n"

// clock is the injected clock of an engine run with real CLIs: the CLIs
// take real time, autobuild's waits take none.
type clock struct {
	mu    sync.Mutex
	t     time.Time
	waits []time.Duration
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) sleep(_ context.Context, d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	c.waits = append(c.waits, d)
}

// cliAgent is the preset cli pointed at srv: its environment is the
// recordings' (a fresh HOME, a dummy key) with the CLI's own retries left
// to autobuild's settings.
func cliAgent(t *testing.T, cli string, srv *mockapi.Server) agent.Agent {
	t.Helper()
	Require(t, cli)
	a, err := agent.Resolve(cli, nil)
	require.NoError(t, err)
	a.Args[0] = filepath.Join(BinDir(), cli)
	a.Env = append(a.Env, Env(t, srv, Options{Sandbox: true, DefaultRetries: true})...)
	return a
}

// runEngine runs helloPlan in a fresh repository with agents on c.
func runEngine(t *testing.T, c *clock, agents ...agent.Agent) (engine.Result, *state.Phase) {
	t.Helper()
	repo := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"config", "user.name", "t"}, {"config", "user.email", "t@example.com"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		require.NoError(t, cmd.Run())
	}
	require.NoError(t, os.WriteFile(filepath.Join(repo, "plan.md"), []byte(helloPlan), 0o644))
	for _, args := range [][]string{{"add", "-A"}, {"commit", "-q", "-m", "initial"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		require.NoError(t, cmd.Run())
	}
	pl, err := plan.Parse(filepath.Join(repo, "plan.md"), []byte(helloPlan))
	require.NoError(t, err)
	res, err := engine.Run(context.Background(), engine.Config{Dir: repo, Plan: pl, CommitMode: "auto", Agents: agents,
		Grace: time.Second, PhaseTimeout: 2 * time.Minute, Now: c.now, Sleep: c.sleep, NoJitter: true,
		WaitLimit: schedule.DefaultWaitLimit})
	require.NoError(t, err)
	ps, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	return res, ps
}

func newClock() *clock { return &clock{t: time.Now().Truncate(time.Second)} }

func success() []mockapi.Reply {
	return []mockapi.Reply{mockapi.WriteFile("hello.txt", "hello\n"), mockapi.Text(SuccessText)}
}

func times(n int, r mockapi.Reply) []mockapi.Reply {
	out := make([]mockapi.Reply, n)
	for i := range out {
		out[i] = r
	}
	return out
}

func agentsOf(ps *state.Phase) string {
	var out []string
	for _, a := range ps.Attempts {
		out = append(out, fmt.Sprintf("%d:%s:%s", a.Number, a.Agent, a.Outcome))
	}
	return strings.Join(out, " ")
}

// A storm of 6 429s: claude spends its own 2 retries per invocation, so
// autobuild runs it 3 times (two back-offs), and the phase completes on
// attempt 1 without using the retry.
func TestEngineSurvivesA429StormWithClaude(t *testing.T) {
	t.Parallel()
	srv := mockapi.New(t, mockapi.Claude, append(times(6, mockapi.Fail(mockapi.RateLimited)), success()...)...)
	c := newClock()
	start := time.Now()
	res, ps := runEngine(t, c, cliAgent(t, "claude", srv))
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	require.Equal(t, "1:claude:failed 1:claude:failed 1:claude:complete", agentsOf(ps))
	require.Equal(t, []time.Duration{15 * time.Second, 30 * time.Second}, c.waits)
	require.Len(t, srv.ModelRequests(), 8)
	t.Logf("STORM claude: 6 x 429 -> %d invocations, %d model requests, back-offs %v, %.1f s of real time",
		len(ps.Attempts), len(srv.ModelRequests()), c.waits, time.Since(start).Seconds())
}

// claude's usage limit resetting in 5 s is waited out (on the injected
// clock) and the phase completes on attempt 1 of 2.
func TestEngineWaitsOutClaudesUsageLimit(t *testing.T) {
	t.Parallel()
	c := newClock()
	srv := mockapi.New(t, mockapi.Claude, success()...)
	srv.LimitUntil(mockapi.UsageLimit, c.now().Add(5*time.Second), c.now)
	res, ps := runEngine(t, c, subscriptionAgent(t, srv))
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	require.Equal(t, "1:claude:failed 1:claude:complete", agentsOf(ps))
	require.True(t, ps.Attempts[0].Error.UsageLimit)
	require.Len(t, c.waits, 1)
	require.InDelta(t, 5, c.waits[0].Seconds(), 1, "waits until the reset")
	t.Logf("USAGE claude: reset in 5 s -> waited %s, %d invocations, %d model requests", c.waits, len(ps.Attempts), len(srv.ModelRequests()))
}

// A usage limit past --wait-limit halts with the local reset time.
func TestEngineHaltsOnClaudesFarUsageLimit(t *testing.T) {
	t.Parallel()
	c := newClock()
	srv := mockapi.New(t, mockapi.Claude)
	srv.LimitUntil(mockapi.UsageLimit, time.Unix(mockapi.UsageLimitReset, 0), c.now)
	res, ps := runEngine(t, c, subscriptionAgent(t, srv))
	require.Equal(t, state.RunHalted, res.Status)
	require.Contains(t, res.Reason, "claude's 5-hour limit resets at "+time.Unix(mockapi.UsageLimitReset, 0).Local().Format("Mon 2 Jan 15:04 MST"))
	require.Contains(t, res.Reason, "past --wait-limit 6h")
	require.Len(t, ps.Attempts, 1)
	require.Empty(t, c.waits)
}

// An exhausted context is continued in the same claude session: the
// retry's request carries the first prompt (the session's history) and the
// short continue prompt.
func TestEngineContinuesClaudesSession(t *testing.T) {
	t.Parallel()
	srv := mockapi.New(t, mockapi.Claude, append([]mockapi.Reply{mockapi.Fail(mockapi.PromptTooLong)}, success()...)...)
	c := newClock()
	res, ps := runEngine(t, c, cliAgent(t, "claude", srv))
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	require.Equal(t, "1:claude:failed 2:claude:complete", agentsOf(ps))
	require.NotEmpty(t, ps.Attempts[0].Session)
	reqs := srv.ModelRequests()
	require.Len(t, reqs, 3)
	body := string(reqs[1].Body)
	require.Contains(t, body, "Create hello.txt containing the line hello", "the session's first prompt")
	require.Contains(t, body, "you ran out of context", "the continue prompt")
}

// With two agents, a usage limit on the first moves the phase to the second
// at once, without a wait and without the retry.
func TestEngineMovesALimitedPhaseToTheSecondAgent(t *testing.T) {
	t.Parallel()
	c := newClock()
	claudeSrv := mockapi.New(t, mockapi.Claude)
	claudeSrv.LimitUntil(mockapi.UsageLimit, c.now().Add(3*time.Hour), c.now)
	codexSrv := mockapi.New(t, mockapi.Codex, success()...)
	res, ps := runEngine(t, c, subscriptionAgent(t, claudeSrv), cliAgent(t, "codex", codexSrv))
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	require.Equal(t, "1:claude:failed 1:codex:complete", agentsOf(ps))
	require.Empty(t, c.waits)
}
