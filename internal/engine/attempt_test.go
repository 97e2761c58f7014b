package engine

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/gittest"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/plan/plantest"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// gitRepo makes a repository with one commit holding plan.md and returns
// its directory.
func gitRepo(t *testing.T, planText string) string {
	t.Helper()
	return gittest.New(t, gittest.File("plan.md", planText))
}

func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %s: %s", strings.Join(args, " "), out)
	return strings.TrimSpace(string(out))
}

// events collects the events of a run.
type events struct {
	mu   sync.Mutex
	list []event.Event
}

func (e *events) Emit(ev event.Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.list = append(e.list, ev)
}

// baseConfig runs planText in repo with a shell command as the agent.
func baseConfig(t *testing.T, repo, planText, agentShell string, sink event.Sink) Config {
	t.Helper()
	pl, err := plan.Parse(filepath.Join(repo, "plan.md"), []byte(planText))
	require.NoError(t, err)
	return Config{
		Dir: repo, Plan: pl, CommitMode: state.CommitAuto,
		Agents: []agent.Agent{{Name: "script", Shell: agentShell}},
		Grace:  time.Second,
		Sink:   sink,
	}
}

// runPlanWith is runPlan with the configuration changed by change.
func runPlanWith(t *testing.T, planText, agentShell string, change func(*Config)) (Result, string, *events) {
	t.Helper()
	repo := gitRepo(t, planText)
	sink := &events{}
	cfg := baseConfig(t, repo, planText, agentShell, sink)
	change(&cfg)
	res, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	return res, repo, sink
}

// runPlan runs planText in a fresh repository with a shell command as the
// agent and no waiting between rate-limited repeats.
func runPlan(t *testing.T, planText, agentShell string) (Result, string, *events) {
	t.Helper()
	repo := gitRepo(t, planText)
	pl, err := plan.Parse(filepath.Join(repo, "plan.md"), []byte(planText))
	require.NoError(t, err)
	sink := &events{}
	res, err := Run(context.Background(), Config{
		Dir: repo, Plan: pl, CommitMode: state.CommitAuto,
		Agents:  []agent.Agent{{Name: "script", Shell: agentShell}},
		Grace:   time.Second,
		Sink:    sink,
		Backoff: func(int) time.Duration { return 0 },
	})
	require.NoError(t, err)
	return res, repo, sink
}

const onePhase = plantest.OnePhase

// Rate-limited repeats are not a fix tried again, and never use up the
// retry: the attempt is repeated after growing back-offs until their total
// would pass the cap, then the run halts (to be resumed later), not as a
// failed retry and not as circular.
func TestRateLimitRepeatsAreNotCircular(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	res, repo, _ := runPlanWith(t, onePhase, `echo "working"; echo "Error: 429 rate limit exceeded" >&2; exit 1`, func(c *Config) {
		c.Backoff, c.Now, c.Sleep, c.NoJitter = nil, clock.now, clock.sleep, true
	})
	require.Equal(t, state.RunHalted, res.Status)
	require.Contains(t, res.Reason, "Phase 1: still rate limited by script after 10 tries and 27m45s of back-off (the cap is 30m)")

	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Len(t, p.Attempts, 10, "15s, 30s, 1m, 2m, 4m and 5m back-offs fit in the 30-minute cap")
	for _, a := range p.Attempts {
		require.Equal(t, 1, a.Number, "the retry is never used")
		require.Equal(t, failreport.RateLimited, a.Error.Type)
		require.False(t, a.Error.Circular)
	}
}

// The same failure twice in a row, across a resume, is still a circular fix.
func TestRepeatedFixIsCircular(t *testing.T) {
	t.Parallel()
	agentShell := `echo "TypeError: cannot read property length of undefined in parseConfig"; exit 1`
	res, repo, _ := runPlan(t, onePhase, agentShell)
	require.Equal(t, state.RunHalted, res.Status)

	pl, err := plan.Parse(filepath.Join(repo, "plan.md"), []byte(onePhase))
	require.NoError(t, err)
	res, err = Run(context.Background(), Config{Dir: repo, Plan: pl, Resume: true, Grace: time.Second,
		Agents: []agent.Agent{{Name: "script", Shell: agentShell}}})
	require.NoError(t, err)
	require.Contains(t, res.Reason, "same fix tried again")
}

// A rate-limited attempt is repeated in the same worktree, on top of what it
// had done, and its prompt says why.
func TestRateLimitedRepeatContinuesInTheWorktree(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "repeat-prompt.md")
	res, repo, _ := runPlan(t, onePhase, `if [ -f started.txt ]; then
  cp "$AUTOBUILD_PROMPT_FILE" `+out+`; echo done > done.txt
else
  echo half > started.txt; echo "overloaded, try again later" >&2; exit 1
fi`)
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Len(t, p.Attempts, 2)
	require.Equal(t, failreport.RateLimited, p.Attempts[0].Error.Type)
	require.Equal(t, 1, p.Attempts[1].Number, "a repeat keeps the attempt number")
	require.Equal(t, []string{"done.txt", "started.txt"}, p.Commit.FilesCreated, "the first try's work is kept")
	prompt, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Contains(t, string(prompt), "- Type: rate_limited")
}

// An agent that uses up the attempt's whole time leaves none for the gates:
// they are not run, and the timeout blames the agent, not a gate that never
// started. The clock jumps past the limit once the agent has finished.
func TestAgentUsingTheWholeTimeLeavesTheGatesNotRun(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t, onePhase)
	pl, err := plan.Parse(filepath.Join(repo, "plan.md"), []byte(onePhase))
	require.NoError(t, err)
	marker := filepath.Join(t.TempDir(), "agent-done")
	now := func() time.Time {
		if _, err := os.Stat(marker); err == nil {
			return time.Now().Add(2 * time.Hour)
		}
		return time.Now()
	}
	res, err := Run(context.Background(), Config{
		Dir: repo, Plan: pl, CommitMode: state.CommitAuto, Grace: time.Second, Now: now,
		Agents: []agent.Agent{{Name: "script", Shell: "echo work > work.txt; touch " + marker}},
	})
	require.NoError(t, err)
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	// The retry gets twice the time and passes: the clock's jump is behind it.
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	require.Len(t, p.Attempts, 2)
	rep := p.Attempts[0].Error
	require.NotNil(t, rep)
	require.Equal(t, failreport.Timeout, rep.Type)
	// 2h of the clock's jump, and the real seconds the attempt took.
	require.Regexp(t, `^timed out after 2h0m\d+s: no time was left to run the gates$`, rep.Message)
	require.Empty(t, rep.Gate, "no gate is blamed")
	log, err := os.ReadFile(filepath.Join(repo, p.Attempts[0].LogPath))
	require.NoError(t, err)
	require.Contains(t, string(log), "gate test not run: the attempt's time limit (30m0s) is used up")
	require.NotContains(t, string(log), "# autobuild: gate test: true", "the gate did not run")
}

// An agent that deletes its worktree's .git file must not make autobuild's
// git commands fall through to the main repository: the attempt fails as
// autobuild's own trouble, saying what happened, and the user's branch and
// work tree are untouched.
func TestAgentRemovingTheWorktreeGitFileTouchesNothingElse(t *testing.T) {
	t.Parallel()
	res, repo, _ := runPlan(t, onePhase, `echo work > work.txt; rm .git`)
	require.Equal(t, state.RunHalted, res.Status, res.Reason)
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Equal(t, failreport.AgentError, p.Attempts[0].Error.Type)
	require.Contains(t, p.Attempts[0].Error.Message, "removed or replaced the .git file")
	// The retry does not run in a directory that is not the phase's
	// worktree, nor removes it (issue 25): the halt names it.
	require.Equal(t, failreport.OutsideWorktree, p.Error.Type)
	require.Contains(t, p.Error.Message, "is not the phase's own worktree")
	require.Equal(t, "1", runGit(t, repo, "rev-list", "--count", "HEAD"), "no commit on the user's branch")
	require.Empty(t, runGit(t, repo, "status", "--porcelain"))
}
