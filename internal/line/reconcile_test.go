package line

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/record"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// replaySetup makes a message-only run whose line holds one phase commit
// (a.txt) on top of the commit the run started from; the user's branch is
// still at that start.
func replaySetup(t *testing.T) (repo *gitx.Repo, rec *record.Recorder, dir, line, base, tip string) {
	t.Helper()
	dir = gitRepo(t, "# plan\n")
	base = runGit(t, dir, "rev-parse", "HEAD")
	store := state.Open(dir)
	require.NoError(t, store.Init())
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".git", "info", "exclude"), []byte("/.autobuild\n"), 0o644))
	run := &state.Run{RunID: "r1", BaseCommit: base, IntegrationCommit: base, CommitMode: state.CommitMessageOnly,
		Status: state.RunRunning}
	rec = record.New(store, nil, time.Now, run, map[phaseid.ID]*state.Phase{})
	line = state.RefsOf(*run).Integration()
	runGit(t, dir, "switch", "-q", "-c", line)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644))
	runGit(t, dir, "add", "a.txt")
	runGit(t, dir, "commit", "-q", "-m", "feat: phase one\n\n"+gitx.TrailerKey+": 1")
	tip = runGit(t, dir, "rev-parse", "HEAD")
	runGit(t, dir, "switch", "-q", "main")
	var err error
	repo, err = gitx.Open(context.Background(), dir)
	require.NoError(t, err)
	return repo, rec, dir, line, base, tip
}

// A fix the user committed on the branch since the run started is under the
// run's line after a resume: the phase commits are replayed on top of it,
// and the fix becomes the run's base.
func TestReplayOnFixesPutsTheRunOnTopOfYourFix(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	repo, rec, dir, line, base, tip := replaySetup(t)

	got, err := replayOnFixes(ctx, repo, rec, tip, func(string) {})
	require.NoError(t, err)
	require.Equal(t, tip, got, "no fix since the start: the line stays")

	require.NoError(t, os.WriteFile(filepath.Join(dir, "fix.txt"), []byte("fix\n"), 0o644))
	runGit(t, dir, "add", "fix.txt")
	runGit(t, dir, "commit", "-q", "-m", "fix by hand")
	fix := runGit(t, dir, "rev-parse", "HEAD")

	got, err = replayOnFixes(ctx, repo, rec, tip, func(string) {})
	require.NoError(t, err)
	require.NotEqual(t, tip, got)
	require.Equal(t, fix, runGit(t, dir, "rev-parse", got+"^"), "the phase commit sits on the fix")
	require.Equal(t, "feat: phase one", runGit(t, dir, "log", "-1", "--format=%s", got))
	run := rec.RunCopy()
	require.Equal(t, fix, run.BaseCommit)
	require.Equal(t, got, run.IntegrationCommit)
	require.Equal(t, got, runGit(t, dir, "rev-parse", line), "the line moved to the replay")
	require.Empty(t, run.ReplayFrom, "the replay finished")
	require.NotEqual(t, base, run.BaseCommit)
}

// A fix that conflicts with the run's work is refused (exit 3) with the
// commit and file named, and the run's line is put back as it was.
func TestReplayOnFixesRefusesAConflictAndRestoresTheLine(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	repo, rec, dir, line, _, tip := replaySetup(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("mine\n"), 0o644))
	runGit(t, dir, "add", "a.txt")
	runGit(t, dir, "commit", "-q", "-m", "my own a.txt")

	_, err := replayOnFixes(ctx, repo, rec, tip, func(string) {})
	require.Error(t, err)
	require.Equal(t, exitcode.Refused, exitcode.Of(err))
	require.Contains(t, err.Error(), "conflict with the run's work")
	require.Contains(t, err.Error(), "a.txt")
	require.Equal(t, tip, runGit(t, dir, "rev-parse", line), "the line did not move")
	require.Empty(t, rec.RunCopy().ReplayFrom)

	// A branch that no longer holds the run's start is refused too.
	runGit(t, dir, "checkout", "-q", "--orphan", "rewritten")
	runGit(t, dir, "commit", "-q", "--allow-empty", "-m", "rewritten history")
	_, err = replayOnFixes(ctx, repo, rec, tip, func(string) {})
	require.ErrorContains(t, err, "no longer contains the commit the run started from")
}

// The run's line is its branch: made at the recorded tip when missing, put
// back at ReplayFrom after a replay a kill stopped, and freed of the
// worktree an older autobuild kept it checked out in.
func TestLineTip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	repo, rec, dir, line, base, tip := replaySetup(t)
	store := state.Open(dir)
	old := store.IntegrationWorktreePath()
	run := rec.RunCopy()

	runGit(t, dir, "worktree", "add", "-q", old, line)
	got, err := lineTip(ctx, repo, run, store)
	require.NoError(t, err)
	require.Equal(t, tip, got, "the branch is the truth")
	require.NoDirExists(t, old, "the older worktree is gone")
	require.NotContains(t, runGit(t, dir, "worktree", "list"), old)
	require.Equal(t, tip, runGit(t, dir, "rev-parse", line), "its branch stays")

	run.ReplayFrom = base
	got, err = lineTip(ctx, repo, run, store)
	require.NoError(t, err)
	require.Equal(t, base, got)
	require.Equal(t, base, runGit(t, dir, "rev-parse", line), "a stopped replay starts over from where it began")

	runGit(t, dir, "branch", "-D", line)
	run.ReplayFrom, run.IntegrationCommit = "", tip
	got, err = lineTip(ctx, repo, run, store)
	require.NoError(t, err)
	require.Equal(t, tip, got)
	require.Equal(t, tip, runGit(t, dir, "rev-parse", line), "a missing line is made at the recorded tip")
}

// In auto mode the line's branch may lag behind the phases that landed on
// your branch (a kill -9 skips the move at the session's end). A phase
// recorded complete whose commit your branch no longer holds comes back,
// as it did when the line's branch moved with every landing; the phases
// your branch holds are the line.
func TestAutoModeBringsBackLandedPhasesYourBranchLost(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gitRepo(t, diamondPlan)
	base := runGit(t, dir, "rev-parse", "HEAD")
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".git", "info", "exclude"), []byte("/.autobuild\n"), 0o644))
	land := func(id string) string {
		require.NoError(t, os.WriteFile(filepath.Join(dir, id+".txt"), []byte(id+"\n"), 0o644))
		runGit(t, dir, "add", "-A")
		runGit(t, dir, "commit", "-q", "-m", "feat: phase "+id+"\n\n"+gitx.TrailerKey+": "+id)
		return runGit(t, dir, "rev-parse", "HEAD")
	}
	sha0, sha1 := land("0"), land("1")
	pl, err := plan.Parse(filepath.Join(dir, "plan.md"), []byte(diamondPlan))
	require.NoError(t, err)
	run := &state.Run{RunID: "r1", Branch: "main", BaseCommit: base, IntegrationCommit: base,
		CommitMode: state.CommitAuto, Status: state.RunHalted}
	phases := map[phaseid.ID]*state.Phase{}
	for _, p := range pl.Phases {
		phases[p.ID] = &state.Phase{PhaseID: p.ID, DisplayID: p.DisplayID, Status: state.PhasePending}
	}
	for id, sha := range map[phaseid.ID]string{"0": sha0, "1": sha1} {
		phases[id] = &state.Phase{PhaseID: id, DisplayID: phaseid.Display(id), Status: state.PhaseComplete,
			Commit: &state.Commit{SHA: sha}}
	}
	store := state.Open(dir)
	require.NoError(t, store.Init())
	rec := record.New(store, nil, time.Now, run, phases)
	repo, err := gitx.Open(ctx, dir)
	require.NoError(t, err)

	// You reset phase 1 away; the line's branch never moved from the base.
	runGit(t, dir, "reset", "-q", "--hard", sha0)
	tip, err := Reconcile(ctx, pl, repo, rec, store, func(string) {})
	require.NoError(t, err)
	require.Equal(t, sha1, tip)
	require.Equal(t, sha1, runGit(t, dir, "rev-parse", "HEAD"), "phase 1 is back on your branch")
	require.FileExists(t, filepath.Join(dir, "1.txt"))
	require.Equal(t, sha1, runGit(t, dir, "rev-parse", state.RefsOf(*run).Integration()))

	// A fix of yours on top is the line's new tip.
	fix := land("fix")
	tip, err = Reconcile(ctx, pl, repo, rec, store, func(string) {})
	require.NoError(t, err)
	require.Equal(t, fix, tip)

	// A branch rewritten past a landed phase is refused, not followed.
	runGit(t, dir, "reset", "-q", "--hard", sha0)
	land("other")
	_, err = Reconcile(ctx, pl, repo, rec, store, func(string) {})
	require.ErrorContains(t, err, "have diverged")
}

// Resume recovers from a commit trailer only a phase that was stopped
// between landing its commit and recording it: its last attempt was
// stopped, and the commit was made during that attempt. A phase a person
// set to pending (or whose file they deleted) runs again, even when that
// re-run was interrupted too: its earlier commit is older than the attempt.
func TestLandedUnrecorded(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2025, 3, 4, 10, 0, 0, 0, time.UTC)
	// Attempt n starts n-1 hours after t0; during(n) is a time within it.
	attempts := func(outcomes ...string) []state.Attempt {
		var out []state.Attempt
		for i, o := range outcomes {
			out = append(out, state.Attempt{Number: i + 1, Outcome: o, Started: t0.Add(time.Duration(i) * time.Hour)})
		}
		return out
	}
	during := func(n int) time.Time { return t0.Add(time.Duration(n-1)*time.Hour + time.Minute) }
	// Git keeps whole seconds: a commit made 0.3 s after an attempt that
	// started at 0.7 s past a second reads as made before it started.
	sameSecond := attempts(state.OutcomeInterrupted)
	sameSecond[0].Started = t0.Add(700 * time.Millisecond)

	for _, c := range []struct {
		name     string
		ps       state.Phase
		authored time.Time
		want     bool
	}{
		{"killed while landing", state.Phase{Status: state.PhasePending, Attempts: attempts(state.OutcomeInterrupted)}, during(1), true},
		{"killed in the second it started", state.Phase{Status: state.PhasePending, Attempts: sameSecond}, t0, true},
		{"still marked running", state.Phase{Status: state.PhaseRunning, Attempts: attempts(state.OutcomeRunning)}, during(1), true},
		{"retry killed while landing", state.Phase{Status: state.PhasePending, Attempts: attempts(state.OutcomeFailed, state.OutcomeInterrupted)}, during(2), true},
		{"set to pending by hand", state.Phase{Status: state.PhasePending, Attempts: attempts(state.OutcomeComplete)}, during(1), false},
		{"set to pending by hand, re-run interrupted", state.Phase{Status: state.PhasePending,
			Attempts: attempts(state.OutcomeComplete, state.OutcomeInterrupted)}, during(1), false},
		{"set to pending by hand, re-run killed while landing", state.Phase{Status: state.PhasePending,
			Attempts: attempts(state.OutcomeComplete, state.OutcomeInterrupted)}, during(2), true},
		{"file deleted by hand", state.Phase{Status: state.PhasePending}, during(1), false},
		{"file deleted by hand, re-run interrupted", state.Phase{Status: state.PhasePending,
			Attempts: attempts(state.OutcomeInterrupted)}, t0.Add(-time.Hour), false},
		{"failed", state.Phase{Status: state.PhasePending, Attempts: attempts(state.OutcomeFailed)}, during(1), false},
		{"already complete", state.Phase{Status: state.PhaseComplete, Attempts: attempts(state.OutcomeInterrupted)}, during(1), false},
	} {
		require.Equal(t, c.want, landedUnrecorded(c.ps, c.authored), c.name)
	}
}
