package line

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/autobuild-sh/autobuild/internal/clip"
	"github.com/autobuild-sh/autobuild/internal/crashpoint"
	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/record"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// reconcile makes the run's line and the state files agree after any stop,
// kill -9 included. Git is the truth for what landed: a commit carrying a
// phase's trailer means the phase is complete, even when its state file was
// never written. It returns the integration tip to build on.
func Reconcile(ctx context.Context, pl *plan.Plan, repo *gitx.Repo, rec *record.Recorder, store *state.Store, at func(step string)) (string, error) {
	run := rec.RunCopy()
	s, err := StrategyFor(run.CommitMode)
	if err != nil {
		return "", exitcode.Refusedf("the run in %s: %w", store.Dir(), err)
	}
	tip, err := lineTip(ctx, repo, run, store)
	if err != nil {
		return "", err
	}
	// The mode's steps: in auto mode your branch is the line, read first
	// so that the phases that landed on it are found; the other modes
	// replay the line onto your commits after.
	tip, err = s.reconcile(ctx, reconciling{pl: pl, repo: repo, rec: rec, run: run, at: at, s: s}, tip)
	if err != nil {
		return "", err
	}
	rec.UpdateRun(func(r *state.Run) { r.IntegrationCommit = tip })
	return tip, nil
}

// landedTip returns the line's tip in auto mode, where the line's branch
// may lag behind the phases that landed (it moves when a session ends, and
// a kill -9 skips that): the newest commit a complete phase recorded when
// your branch no longer holds it (you reset it away, or it was never
// fast-forwarded), so that followBranch puts it back or refuses; else tip.
func landedTip(ctx context.Context, pl *plan.Plan, repo *gitx.Repo, rec *record.Recorder, tip string) (string, error) {
	var landed []string
	for _, p := range pl.Phases {
		if ps := rec.Get(p.ID); ps.Status == state.PhaseComplete && ps.Commit != nil && ps.Commit.SHA != "" {
			landed = append(landed, ps.Commit.SHA)
		}
	}
	missing, err := repo.NewestNotIn(ctx, "HEAD", landed)
	if err != nil {
		return "", exitcode.Refusedf("checking that your branch holds the commits of the completed phases: %w "+
			"(a phase recorded complete whose commit is gone: set it to pending in its phase file, or start over with --fresh)", err)
	}
	if missing == "" || !isAncestor(ctx, repo, tip, missing) {
		return tip, nil
	}
	return missing, nil
}

// followBranch returns the line's tip in auto mode, where your branch is
// the line: your branch, which holds every phase that landed and the
// fixes you committed on top, or tip when your branch lacks landed phases
// (they are put back on it).
func followBranch(ctx context.Context, repo *gitx.Repo, tip string) (string, error) {
	head, err := repo.Head(ctx, "")
	if err != nil {
		return "", exitcode.Refusedf("reading HEAD: %w", err)
	}
	switch {
	case head == tip:
	case isAncestor(ctx, repo, head, tip):
		// Your branch lacks phases that landed (landedTip), or an older
		// autobuild moved its line first and was killed before moving
		// your branch: they come back.
		if err := repo.FastForward(ctx, repo.Root(), tip); err != nil {
			return "", exitcode.Refusedf("moving your branch to the run's last integrated phase: %w", err)
		}
	case isAncestor(ctx, repo, tip, head):
		// The phases that landed since the line's branch last moved, and
		// your fixes on top: later phases build on them.
		tip = head
	default:
		return "", exitcode.Refusedf("your branch (%s) and the run's line (%s) have diverged: rebase your commits onto %s, or start over with --fresh", clip.SHA(head), clip.SHA(tip), clip.SHA(tip))
	}
	return tip, nil
}

// reconciling is what a strategy's steps of reconcile work on.
type reconciling struct {
	pl   *plan.Plan
	repo *gitx.Repo
	rec  *record.Recorder
	run  state.Run
	at   func(step string)
	s    Strategy
}

// recover marks complete the phases that landed on the line at tip but
// whose state file does not say so (recoverLanded); a new run has nothing
// on its line yet.
func (r reconciling) recover(ctx context.Context, tip string) error {
	if tip == r.run.BaseCommit {
		return nil
	}
	return recoverLanded(ctx, r.pl, r.repo, r.rec, r.run, tip, r.s)
}

// recoverLanded marks complete the phases that landed on the line but were
// stopped before their state file said so (landedUnrecorded).
func recoverLanded(ctx context.Context, pl *plan.Plan, repo *gitx.Repo, rec *record.Recorder, run state.Run, tip string, s Strategy) error {
	landed, err := repo.PhaseCommits(ctx, run.BaseCommit, tip)
	if err != nil {
		return exitcode.Refusedf("reading the run's commits: %w", err)
	}
	for _, p := range pl.Phases {
		sha, ok := landed[p.ID]
		if !ok || !stoppedMidAttempt(rec.Get(p.ID)) {
			continue // asked first: only these phases cost a git command
		}
		authored, err := repo.AuthorTime(ctx, sha)
		if err != nil {
			return exitcode.Refusedf("reading when phase %s's commit %s was made: %w", p.DisplayID, clip.SHA(sha), err)
		}
		if !landedUnrecorded(rec.Get(p.ID), authored) {
			continue
		}
		commit := recoveredCommit(ctx, repo, sha)
		rec.Phase(p.ID, func(ps *state.Phase) {
			ps.Status = state.PhaseComplete
			ps.Commit = commit
			// On the run's line, not your branch, unless it is the line:
			// the other modes land at the end.
			ps.Commit.SHA = s.recorded(ps.Commit.SHA)
			last := &ps.Attempts[len(ps.Attempts)-1]
			last.Outcome = state.OutcomeComplete
			ps.Attempt = last.Number
		})
	}
	return nil
}

// lineTip returns the tip of the run's line, the branch that is its
// truth, and makes sure the branch exists: it is made at the recorded tip
// when it is missing (a new run, or deleted by hand). A replay that a kill
// stopped (ReplayFrom set) starts over from the line it started from.
// A worktree an older autobuild kept the line checked out in goes: the
// line lives in its branch alone now.
func lineTip(ctx context.Context, repo *gitx.Repo, run state.Run, store *state.Store) (string, error) {
	if err := RemoveOldLineWorktree(ctx, repo, store); err != nil {
		return "", exitcode.Refusedf("%w", err)
	}
	line := state.RefsOf(run).Integration()
	tip, ok, err := repo.BranchCommit(ctx, line)
	if err != nil {
		return "", exitcode.Refusedf("reading the run's line (branch %s): %w", line, err)
	}
	want := tip
	switch {
	case run.ReplayFrom != "":
		want = run.ReplayFrom
	case !ok:
		want = run.IntegrationCommit
	}
	if want != tip || !ok {
		if err := repo.MoveBranch(ctx, line, want, tip); err != nil {
			return "", exitcode.Refusedf("setting the run's line (branch %s) to %s: %w", line, clip.SHA(want), err)
		}
	}
	return want, nil
}

// removeOldLineWorktree removes the worktree an older autobuild kept the
// run's line checked out in, when there is one; its branch stays.
func RemoveOldLineWorktree(ctx context.Context, repo *gitx.Repo, store *state.Store) error {
	old := store.IntegrationWorktreePath()
	if _, err := os.Lstat(old); err != nil {
		return nil
	}
	if err := repo.RemoveWorktree(ctx, old); err != nil {
		return fmt.Errorf("removing the integration worktree of an older autobuild: %w", err)
	}
	return nil
}

// replayOnFixes handles the modes that leave the branch alone (message-only,
// single): the run's line grows from the commit the run started at, so a fix
// the user committed on the branch since then would be invisible to the
// phases. The run's phase commits are replayed on top of the branch, which
// becomes the run's new base. It returns the new integration tip.
//
// The replay is made in git's objects and the line moves once, at its end:
// a replay stopped half way (Ctrl-C, a conflict, a kill) leaves the line
// as it was. ReplayFrom, written first, covers the one step that is not
// atomic: a kill after the line moved but before run.json took the new
// base; the next start puts the line back at ReplayFrom and replays again.
func replayOnFixes(ctx context.Context, repo *gitx.Repo, rec *record.Recorder, tip string, at func(step string)) (string, error) {
	run := rec.RunCopy()
	head, err := repo.Head(ctx, "")
	if err != nil {
		return "", exitcode.Refusedf("reading HEAD: %w", err)
	}
	if head == run.BaseCommit || isAncestor(ctx, repo, head, tip) {
		return tip, nil
	}
	if !isAncestor(ctx, repo, run.BaseCommit, head) {
		return "", exitcode.Refusedf("your branch (%s) no longer contains the commit the run started from (%s): "+
			"restore it, or start over with --fresh", clip.SHA(head), clip.SHA(run.BaseCommit))
	}
	commits, err := repo.Commits(ctx, run.BaseCommit, tip)
	if err != nil {
		return "", exitcode.Refusedf("reading the run's commits: %w", err)
	}
	at("replaying the run's completed phases onto your commits")
	rec.UpdateRun(func(r *state.Run) { r.ReplayFrom = tip })
	if err := rec.Failed(); err != nil {
		return "", exitcode.Refusedf("%w", err)
	}
	// Nothing has moved until the end: giving up is forgetting ReplayFrom.
	giveUp := func() { rec.UpdateRun(func(r *state.Run) { r.ReplayFrom = "" }) }
	newTip := head
	for i, c := range commits {
		picked, conflicts, err := repo.Pick(ctx, newTip, c, false)
		if err == nil && len(conflicts) == 0 {
			newTip = picked
			crashpoint.At("replayed", strconv.Itoa(i+1))
			continue
		}
		giveUp()
		if err != nil {
			return "", exitcode.Refusedf("replaying the run's work (%s) on your commits: %w", clip.SHA(c), err)
		}
		return "", exitcode.Refusedf("your commits since the run started conflict with the run's work (commit %s, in %s): "+
			"rebase them yourself, or start over with --fresh", clip.SHA(c), strings.Join(conflicts, ", "))
	}
	if err := repo.MoveBranch(ctx, state.RefsOf(run).Integration(), newTip, tip); err != nil {
		giveUp()
		return "", exitcode.Refusedf("moving the run's line onto your branch: %w", err)
	}
	rec.UpdateRun(func(r *state.Run) { r.BaseCommit, r.IntegrationCommit, r.ReplayFrom = head, newTip, "" })
	return newTip, nil
}

// landedUnrecorded reports whether a phase whose commit on the run's line
// was authored at the given time was stopped between landing that commit
// and recording it: its last attempt was still running (a kill -9) or was
// interrupted (Ctrl-C during integration), and the commit was made during
// that attempt. Any other phase with a commit on the line is there by a
// person's choice: a phase file edited to pending, or deleted, is
// documented recovery that runs the phase again, so the trailer of its
// earlier commit does not override it, even when the re-run is stopped.
//
// "Made during the attempt" is read from the commit's author time, which a
// pick keeps (gitx.Repo.Pick, the replay onto a fix included): the phase's commit
// is authored in its worktree while the attempt lands it, and a commit from
// an earlier completion is older than the attempt. Git dates have whole
// seconds, so the comparison is to the second.
func landedUnrecorded(ps state.Phase, authored time.Time) bool {
	if !stoppedMidAttempt(ps) {
		return false
	}
	return authored.Unix() >= ps.Attempts[len(ps.Attempts)-1].Started.Unix()
}

// stoppedMidAttempt reports whether a phase that is not complete was
// stopped while its last attempt ran: the only way a commit of the phase
// can be on the run's line without the state file saying so.
func stoppedMidAttempt(ps state.Phase) bool {
	if ps.Status == state.PhaseComplete || ps.Status == state.PhaseSkipped || len(ps.Attempts) == 0 {
		return false
	}
	switch ps.Attempts[len(ps.Attempts)-1].Outcome {
	case state.OutcomeRunning, state.OutcomeInterrupted:
		return true
	}
	return false
}

// recoveredCommit describes a phase's landed commit from git, for a phase
// whose state file never got it.
func recoveredCommit(ctx context.Context, repo *gitx.Repo, sha string) *state.Commit {
	c := &state.Commit{SHA: sha, Message: "(recovered from the commit's " + gitx.TrailerKey + " trailer)\n"}
	if msg, err := repo.Message(ctx, sha); err == nil {
		c.Message = msg
	}
	if ch, err := gitx.ChangesBetween(ctx, repo.Root(), sha+"^", sha); err == nil {
		c.FilesCreated, c.FilesModified, c.FilesDeleted = ch.Created, ch.Modified, ch.Deleted
	}
	return c
}

func isAncestor(ctx context.Context, repo *gitx.Repo, a, b string) bool {
	ok, err := repo.IsAncestor(ctx, a, b)
	return err == nil && ok
}
