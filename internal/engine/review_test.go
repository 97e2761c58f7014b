package engine

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// awaitHold waits until phase id of the run in repo awaits review, and
// returns its hold.
func awaitHold(t *testing.T, repo string, id phaseid.ID) state.ReviewHold {
	t.Helper()
	store := state.Open(repo)
	var hold state.ReviewHold
	require.Eventually(t, func() bool {
		ps, err := store.LoadPhase(id)
		if err != nil || ps.Status != state.PhaseAwaitingReview || ps.Review == nil {
			return false
		}
		hold = *ps.Review
		return true
	}, 30*time.Second, 20*time.Millisecond)
	return hold
}

func decide(t *testing.T, repo string, id phaseid.ID, hold state.ReviewHold, decision, note string) {
	t.Helper()
	require.NoError(t, state.Open(repo).SaveReviewDecision(state.ReviewDecision{PhaseID: id, Decision: decision,
		Note: note, Tree: hold.Tree, Decided: time.Now()}))
}

func reviewConfig(c *Config) {
	c.Review = state.ReviewPhase
	c.ReviewPoll = 10 * time.Millisecond
}

// With --review=phase a phase whose gates passed waits, unlanded, until a
// person approves it; then it lands as usual.
func TestReviewHoldsUntilApproved(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t, onePhase)
	head := runGit(t, repo, "rev-parse", "HEAD")
	done := runInBackground(t, repo, onePhase, `echo hello > hello.txt`, reviewConfig)
	hold := awaitHold(t, repo, "1")
	require.Equal(t, head, runGit(t, repo, "rev-parse", "HEAD"), "nothing lands before the review")
	diff, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(hold.DiffPath)))
	require.NoError(t, err)
	require.Contains(t, string(diff), "+hello")
	require.NotEmpty(t, runGit(t, repo, "rev-parse", "--verify", hold.Ref), "the work is kept under a ref")

	decide(t, repo, "1", hold, state.DecisionApprove, "")
	res := <-done
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	require.Equal(t, "hello", runGit(t, repo, "show", "HEAD:hello.txt"))
	ps, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Nil(t, ps.Review)
	cmd := runGitErr(repo, "rev-parse", "--verify", "--quiet", hold.Ref)
	require.Error(t, cmd, "the kept work is forgotten once it landed")
}

// A rejection fails the attempt with review_rejected; the note is the
// retry's context, in its prompt, and stays in the phase file.
func TestReviewRejectNoteReachesRetryPrompt(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t, onePhase)
	prompts := t.TempDir()
	agentShell := `n=$(ls ` + prompts + ` | wc -l); cp "$AUTOBUILD_PROMPT_FILE" ` + prompts + `/prompt-$n.md; echo "try $n" > out.txt`
	done := make(chan Result, 1)
	sink := &events{}
	go func() {
		res, ev := runIn(t, context.Background(), repo, onePhase, agentShell, reviewConfig)
		sink.list = ev.list
		done <- res
	}()
	hold := awaitHold(t, repo, "1")
	decide(t, repo, "1", hold, state.DecisionReject, "use a constant, not a literal")
	require.Eventually(t, func() bool {
		ps, err := state.Open(repo).LoadPhase("1")
		return err == nil && len(ps.Attempts) == 2 && ps.Status == state.PhaseAwaitingReview && ps.Review != nil && ps.Review.Tree != hold.Tree
	}, 30*time.Second, 20*time.Millisecond)
	second := awaitHold(t, repo, "1")
	decide(t, repo, "1", second, state.DecisionApprove, "")
	res := <-done
	require.Equal(t, state.RunComplete, res.Status, res.Reason)

	retry, err := os.ReadFile(filepath.Join(prompts, "prompt-1.md"))
	require.NoError(t, err)
	require.Contains(t, string(retry), "review_rejected")
	require.Contains(t, string(retry), "use a constant, not a literal")
	ps, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Equal(t, failreport.ReviewRejected, ps.Attempts[0].Error.Type)
	require.Len(t, ps.Notes, 1)
	require.Equal(t, "use a constant, not a literal", ps.Notes[0].Text)
	var kinds []string
	for _, e := range sink.list {
		if e.Kind == event.PhaseAwaitingReview || e.Kind == event.PhaseReviewed {
			kinds = append(kinds, string(e.Kind)+":"+e.Line[:min(8, len(e.Line))])
		}
	}
	require.Equal(t, []string{"phase_awaiting_review:review i", "phase_reviewed:rejected", "phase_awaiting_review:review i", "phase_reviewed:approved"}, kinds)
}

// A run stopped while a phase awaits review leaves it awaiting review; the
// resume holds it again from the kept work (its worktree is gone), without
// running the agent again, and the approval lands that work.
func TestReviewHoldSurvivesStopAndResume(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t, onePhase)
	runs := filepath.Join(t.TempDir(), "runs")
	agentShell := `echo run >> ` + runs + `; mkdir -p pkg; echo kept > pkg/kept.txt`
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan Result, 1)
	go func() {
		res, _ := runIn(t, ctx, repo, onePhase, agentShell, reviewConfig)
		done <- res
	}()
	hold := awaitHold(t, repo, "1")
	cancel()
	res := <-done
	require.Equal(t, state.RunInterrupted, res.Status)
	ps, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Equal(t, state.PhaseAwaitingReview, ps.Status)

	// The decision may be written while no run is live.
	decide(t, repo, "1", hold, state.DecisionApprove, "")
	res, _ = runIn(t, context.Background(), repo, onePhase, agentShell, func(c *Config) {
		c.Resume, c.ReviewPoll = true, 10*time.Millisecond
	})
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	require.Equal(t, "kept", runGit(t, repo, "show", "HEAD:pkg/kept.txt"))
	n, err := os.ReadFile(runs)
	require.NoError(t, err)
	require.Equal(t, 1, strings.Count(string(n), "run"), "the agent ran once")
}

func runGitErr(dir string, args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	return cmd.Run()
}

// A person changes the worktree in review (the UI's editor or shell) and
// asks for the gates again: they run on the change, and the new change is
// what waits and lands. A gate that fails on it fails the attempt.
func TestReviewRecheckRunsTheGatesOnThePersonsChange(t *testing.T) {
	t.Parallel()
	plan := "# One\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n\n## Phase 1: Only\n\n## Quality Gates\n\n- test: `! grep -q broken hello.txt`\n"
	repo := gitRepo(t, plan)
	done := runInBackground(t, repo, plan, `echo hello > hello.txt`, reviewConfig)
	hold := awaitHold(t, repo, "1")
	wt := filepath.Join(repo, ".autobuild", "worktrees", "phase-1")
	require.NoError(t, os.WriteFile(filepath.Join(wt, "hello.txt"), []byte("hello, reviewer\n"), 0o644))
	decide(t, repo, "1", hold, state.DecisionRecheck, "")
	var second state.ReviewHold
	require.Eventually(t, func() bool {
		second = awaitHold(t, repo, "1")
		return second.Tree != hold.Tree
	}, 30*time.Second, 20*time.Millisecond)
	diff, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(second.DiffPath)))
	require.NoError(t, err)
	require.Contains(t, string(diff), "+hello, reviewer")

	// Broken now: the gate fails on the person's change.
	require.NoError(t, os.WriteFile(filepath.Join(wt, "hello.txt"), []byte("broken\n"), 0o644))
	decide(t, repo, "1", second, state.DecisionRecheck, "")
	require.Eventually(t, func() bool {
		ps, err := state.Open(repo).LoadPhase("1")
		return err == nil && len(ps.Attempts) >= 1 && ps.Attempts[0].Error != nil
	}, 30*time.Second, 20*time.Millisecond)
	ps, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Equal(t, failreport.TestFailure, ps.Attempts[0].Error.Type)

	// The retry (the agent again) passes; approve it.
	third := awaitHold(t, repo, "1")
	decide(t, repo, "1", third, state.DecisionApprove, "")
	res := <-done
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
}

// A person's note to a running phase stops its attempt and continues it
// with the note in the prompt, on top of the work so far, without using up
// the retry; the note is kept in the phase file.
func TestSteerNoteContinuesTheAttempt(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t, onePhase)
	out := filepath.Join(t.TempDir(), "continued-prompt.md")
	agentShell := `if [ -f half.txt ]; then cp "$AUTOBUILD_PROMPT_FILE" ` + out + `; echo done > done.txt; exit 0; fi
echo half > half.txt; echo working; sleep 60`
	done := make(chan Result, 1)
	sink := &events{}
	go func() {
		res, ev := runIn(t, context.Background(), repo, onePhase, agentShell, func(c *Config) { c.ReviewPoll = 10 * time.Millisecond })
		sink.list = ev.list
		done <- res
	}()
	wt := filepath.Join(repo, ".autobuild", "worktrees", "phase-1")
	require.Eventually(t, func() bool {
		_, err := os.Stat(filepath.Join(wt, "half.txt"))
		return err == nil
	}, 30*time.Second, 10*time.Millisecond)
	require.NoError(t, state.Open(repo).SaveSteer(state.Steer{PhaseID: "1", Note: "use the standard library only", Sent: time.Now()}))
	var res Result
	select {
	case res = <-done:
	case <-time.After(40 * time.Second):
		t.Fatal("the note did not stop the attempt")
	}
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	prompt, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Contains(t, string(prompt), "## A note from the person supervising this run")
	require.Contains(t, string(prompt), "> use the standard library only")
	ps, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Len(t, ps.Attempts, 2)
	require.Equal(t, state.OutcomeInterrupted, ps.Attempts[0].Outcome)
	require.Equal(t, 1, ps.Attempts[1].Number, "the retry is not used up")
	require.Equal(t, []state.Note{{Time: ps.Notes[0].Time, Kind: "steer", Attempt: 1, Text: "use the standard library only"}}, ps.Notes)
	require.Equal(t, "half", runGit(t, repo, "show", "HEAD:half.txt"), "the work so far is kept")
	var steered bool
	for _, e := range sink.list {
		steered = steered || (e.Kind == event.PhaseSteered && e.Line == "use the standard library only")
	}
	require.True(t, steered)
}

// The history keeps a person's note with the attempt it ended.
func TestNotesReachTheHistory(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t, onePhase)
	done := runInBackground(t, repo, onePhase, `echo hello > hello.txt`, reviewConfig)
	hold := awaitHold(t, repo, "1")
	decide(t, repo, "1", hold, state.DecisionReject, "say goodbye too")
	require.Eventually(t, func() bool {
		ps, err := state.Open(repo).LoadPhase("1")
		return err == nil && len(ps.Attempts) == 2 && ps.Status == state.PhaseAwaitingReview
	}, 30*time.Second, 20*time.Millisecond)
	decide(t, repo, "1", awaitHold(t, repo, "1"), state.DecisionApprove, "")
	<-done
	hist, err := os.ReadFile(filepath.Join(repo, ".autobuild", "history.jsonl"))
	require.NoError(t, err)
	require.Contains(t, string(hist), `"failure_type":"review_rejected"`)
	require.Contains(t, string(hist), `"note":"say goodbye too","note_kind":"review"`)
}

// A phase waiting for review does no work: its slot goes to the next
// phase, under both schedules, so with one slot two independent phases
// both come to wait for review at the same time.
func TestReviewHoldFreesItsSlot(t *testing.T) {
	t.Parallel()
	const twoPhases = "# Two\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n| 2 | - |\n\n## Phase 1: One\n\n## Phase 2: Two\n\n## Quality Gates\n\n- test: `true`\n"
	for _, sched := range []state.Schedule{state.ScheduleBatches, state.ScheduleEager} {
		t.Run(string(sched), func(t *testing.T) {
			t.Parallel()
			repo := gitRepo(t, twoPhases)
			done := runInBackground(t, repo, twoPhases, `echo "$AUTOBUILD_PHASE_ID" > "out-$AUTOBUILD_PHASE_ID.txt"`, func(c *Config) {
				reviewConfig(c)
				c.MaxParallel, c.Schedule = 1, sched
			})
			one := awaitHold(t, repo, "1")
			two := awaitHold(t, repo, "2")
			ps, err := state.Open(repo).LoadPhase("1")
			require.NoError(t, err)
			require.Equal(t, state.PhaseAwaitingReview, ps.Status, "both wait at once")
			decide(t, repo, "2", two, state.DecisionApprove, "")
			decide(t, repo, "1", one, state.DecisionApprove, "")
			res := <-done
			require.Equal(t, state.RunComplete, res.Status, res.Reason)
			require.Equal(t, "1", runGit(t, repo, "show", "HEAD:out-1.txt"))
			require.Equal(t, "2", runGit(t, repo, "show", "HEAD:out-2.txt"))
		})
	}
}

// An approval that comes after you committed on your branch meanwhile
// lands under the usual rules: on top of your commit, which stays.
func TestReviewApprovalAfterAUserCommitLandsOnIt(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t, onePhase)
	done := runInBackground(t, repo, onePhase, `echo hello > hello.txt`, reviewConfig)
	hold := awaitHold(t, repo, "1")
	require.NoError(t, os.WriteFile(filepath.Join(repo, "user.txt"), []byte("mine\n"), 0o644))
	runGit(t, repo, "add", "user.txt")
	runGit(t, repo, "commit", "-q", "-m", "user: my own change")
	userTip := runGit(t, repo, "rev-parse", "HEAD")
	decide(t, repo, "1", hold, state.DecisionApprove, "")
	res := <-done
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	require.Equal(t, "hello", runGit(t, repo, "show", "HEAD:hello.txt"))
	require.Equal(t, "mine", runGit(t, repo, "show", "HEAD:user.txt"))
	require.Equal(t, userTip, runGit(t, repo, "rev-parse", "HEAD~1"), "the phase lands on your commit")
}

// A decision file that is not one (a hand edit gone wrong) decides
// nothing: the phase keeps waiting, and a real decision still lands it.
func TestReviewIgnoresAnUnreadableDecision(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t, onePhase)
	done := runInBackground(t, repo, onePhase, `echo hello > hello.txt`, reviewConfig)
	hold := awaitHold(t, repo, "1")
	store := state.Open(repo)
	require.NoError(t, os.WriteFile(store.ReviewDecisionPath("1"), []byte("{approve"), 0o644))
	time.Sleep(100 * time.Millisecond) // ten polls
	ps, err := store.LoadPhase("1")
	require.NoError(t, err)
	require.Equal(t, state.PhaseAwaitingReview, ps.Status)
	decide(t, repo, "1", hold, state.DecisionApprove, "")
	res := <-done
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
}

// runInBackground runs the plan as runIn does, in a goroutine, so the test
// can decide on its holds meanwhile; the channel gets how the run ended.
func runInBackground(t *testing.T, repo, planText, agentShell string, change func(*Config)) <-chan Result {
	done := make(chan Result, 1)
	go func() {
		res, _ := runIn(t, context.Background(), repo, planText, agentShell, change)
		done <- res
	}()
	return done
}
