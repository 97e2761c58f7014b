package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

const reviewPlan = "# Review\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n\n## Phase 1: Greet\n\n- [ ] write the greeting\n\n## Quality Gates\n\n- test: `true`\n"

// reviewScenario is the simulated agent writing greet.txt.
func reviewScenario(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "scenario.json")
	writeFile(t, path, `{"default": {"steps": [{"say": "Writing greet.txt"}, {"write": "greet.txt", "content": "hello\n"}],
		"result": {"status": "complete", "commit_message": "feat: write the greeting"}}}`)
	return path
}

// startRun starts autobuild in repo in the background and returns it with
// its output.
func startRun(t *testing.T, repo string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := command(repo, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return cmd, &out
}

// awaitReview waits until phase id awaits review after attempts attempts.
func awaitReview(t *testing.T, repo, id string, attempts int) {
	t.Helper()
	waitFor(t, "phase "+id+" to await review", 60*time.Second, func() bool {
		p, err := state.Open(repo).LoadPhase(phaseid.ID(id))
		return err == nil && p.Status == state.PhaseAwaitingReview && p.Review != nil && len(p.Attempts) == attempts
	})
}

// A run with --review=phase and no terminal is reviewed from another
// terminal: autobuild review shows the change, a rejection's note reaches
// the retry's prompt, and the approval lands it.
func TestReviewHeadlessRejectThenApprove(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, reviewPlan)
	head := git(t, repo, "rev-parse", "HEAD")
	run, out := startRun(t, repo, "plan.md", "--no-tui", "--commit=auto", "--agent", "sim", "--scenario", reviewScenario(t), "--review=phase")
	awaitReview(t, repo, "1", 1)
	require.Equal(t, head, git(t, repo, "rev-parse", "HEAD"), "nothing lands before the review")

	r := autobuild(t, repo, "review")
	require.Equal(t, 0, r.code, r)
	for _, want := range []string{"Phase 1: Greet", "Gates: test passed (true)", "Agent's summary: feat: write the greeting",
		"A greet.txt  +1 -0", "=== greet.txt (added)", "@@ -0,0 +1 @@\n+hello", "Decide: autobuild review 1 --approve"} {
		require.Contains(t, r.stdout, want)
	}
	r = autobuild(t, repo, "status", "--json")
	require.Contains(t, r.stdout, "\"awaiting_review\": [\n    \"1\"\n  ]")

	r = autobuild(t, repo, "review", "1", "--reject")
	require.Equal(t, 2, r.code, "a rejection needs its note: %s", r)
	r = autobuild(t, repo, "review", "1", "--reject", "--note", "call it a salutation")
	require.Equal(t, 0, r.code, r)
	require.Contains(t, r.stdout, "Phase 1 rejected: its retry starts with your note now.")

	awaitReview(t, repo, "1", 2)
	prompt, err := os.ReadFile(state.Open(repo).PromptPath("1", 2))
	require.NoError(t, err)
	require.Contains(t, string(prompt), "review_rejected")
	require.Contains(t, string(prompt), "call it a salutation")

	r = autobuild(t, repo, "review", "--approve")
	require.Equal(t, 0, r.code, r)
	require.NoError(t, run.Wait(), out.String())
	require.Contains(t, out.String(), "PHASE 1 AWAITING REVIEW")
	require.Contains(t, out.String(), "PHASE 1 REVIEWED - rejected: call it a salutation")
	require.Equal(t, 1, phaseCommits(t, repo)["1"], out.String())
	p := loadPhase(t, repo, "1")
	require.Equal(t, state.PhaseComplete, p.Status)
	require.Equal(t, "review_rejected", string(p.Attempts[0].Error.Type))
	require.Equal(t, "call it a salutation", p.Notes[0].Text)
}

// A kill -9 while a phase awaits review loses nothing: the phase still
// awaits review, the resume holds it again without running the agent, and
// the approval lands the work.
func TestReviewSurvivesKill9(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, reviewPlan)
	run, _ := startRun(t, repo, "plan.md", "--no-tui", "--commit=auto", "--agent", "sim", "--scenario", reviewScenario(t), "--review=phase")
	awaitReview(t, repo, "1", 1)
	require.NoError(t, run.Process.Kill())
	_ = run.Wait()

	r := autobuild(t, repo, "status", "--json")
	require.Contains(t, r.stdout, "\"awaiting_review\": [")
	r = autobuild(t, repo, "review", "1")
	require.Equal(t, 0, r.code, r)
	require.Contains(t, r.stdout, "Files:")

	resumed, out := startRun(t, repo, "plan.md", "--no-tui", "--resume")
	awaitReview(t, repo, "1", 1)
	r = autobuild(t, repo, "review", "1", "--approve")
	require.Equal(t, 0, r.code, r)
	require.NoError(t, resumed.Wait(), out.String())
	require.Equal(t, 1, phaseCommits(t, repo)["1"], out.String())
	p := loadPhase(t, repo, "1")
	require.Equal(t, state.PhaseComplete, p.Status)
	require.Len(t, p.Attempts, 1, "the agent did not run again")
	require.True(t, strings.Contains(out.String(), "AWAITING REVIEW"), out.String())
}

// autobuild steer sends a note to a running phase of a --no-tui run: the
// simulated agent is stopped, and its continuation's prompt ends with the
// note; the retry is not used.
func TestSteerHeadless(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, reviewPlan)
	scenario := filepath.Join(t.TempDir(), "scenario.json")
	writeFile(t, scenario, `{"phases": {"1": [
		{"steps": [{"write": "half.txt", "content": "half\n"}, {"say": "working"}, {"sleep": "60s"}]},
		{"steps": [{"write": "greet.txt", "content": "hello\n"}], "result": {"status": "complete"}}]}}`)
	run, out := startRun(t, repo, "plan.md", "--no-tui", "--commit=auto", "--agent", "sim", "--scenario", scenario)
	waitFor(t, "the agent to start working", 60*time.Second, func() bool {
		_, err := os.Stat(filepath.Join(repo, ".autobuild", "worktrees", "phase-1", "half.txt"))
		return err == nil
	})
	r := autobuild(t, repo, "steer", "1", "--note", "write greet.txt instead")
	require.Equal(t, 0, r.code, r)
	require.NoError(t, run.Wait(), out.String())
	require.Contains(t, out.String(), "PHASE 1 STEERED (attempt 1/2) - write greet.txt instead")
	prompt, err := os.ReadFile(state.Open(repo).PromptPath("1", 2))
	require.NoError(t, err)
	require.Contains(t, string(prompt), "> write greet.txt instead")
	p := loadPhase(t, repo, "1")
	require.Len(t, p.Attempts, 2)
	require.Equal(t, 1, p.Attempts[1].Number, "the retry is not used")
	require.Equal(t, "steer", p.Notes[0].Kind)

	r = autobuild(t, repo, "steer", "1", "--note", "again")
	require.Equal(t, 3, r.code, "a phase that is not running cannot be steered: %s", r)
}
