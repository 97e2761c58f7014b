package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/clip"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/shell"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// checkTargetBranch refuses to start on a detached HEAD (its commits would
// be reachable only from the reflog) and to resume a run on another branch
// than the one it lands on.
func checkTargetBranch(ctx context.Context, repo *gitx.Repo, run *state.Run) (string, error) {
	current, err := repo.CurrentBranch(ctx)
	if err != nil {
		return "", refused("reading the current branch: %w", err)
	}
	switch {
	case current == "" && run == nil:
		return "", refused("HEAD is detached: autobuild commits onto a branch, and commits on a detached HEAD are lost " +
			"as soon as you check out something else; make a branch first: git switch -c autobuild-work")
	case run == nil || run.Branch == "" || current == run.Branch:
		return current, nil
	case current == "":
		return "", refused("this run lands on branch %s, but HEAD is detached: %s, then run again", run.Branch, shell.Join("git", "switch", run.Branch))
	}
	return "", refused("this run lands on branch %s, but your checkout is on %s: %s, then run again (or start over on %s with --fresh)",
		run.Branch, current, shell.Join("git", "switch", run.Branch), current)
}

// followUser checks, in auto mode and before a phase lands, that the
// user's checkout is still on the run's branch and where that branch is.
// When the user committed on it since the last landing, the run's line
// moves onto their commits (remembered as a landed change, so an overlap
// names them) and the phase is picked on top. A switched branch, or one
// that no longer holds the run's line, is a halt. Called with in.mu held.
func (in *integrator) followUser(ctx context.Context, p *plan.Phase, phaseFiles []string, outside outsideState) *failure.Report {
	run := in.rec.RunCopy()
	current, head, err := in.repo.BranchHead(ctx)
	if err != nil {
		return branchReport(p, "reading the branch of your checkout: "+err.Error())
	}
	if run.Branch != "" && current != run.Branch {
		where := "HEAD is detached"
		if current != "" {
			where = "your checkout is on " + current
		}
		return branchReport(p, fmt.Sprintf("the run lands on branch %s, but %s now: phase %s was not committed; "+
			"switch back (%s) and resume", run.Branch, where, p.DisplayID, shell.Join("git", "switch", run.Branch)))
	}
	if dirty, ok := in.uncommitted(ctx, outside); ok {
		if both := overlap(dirty, phaseFiles); len(both) > 0 {
			rep := branchReport(p, fmt.Sprintf("your uncommitted changes in %s are in files phase %s changes, so its commit "+
				"cannot land on %s: commit or stash them, then resume", strings.Join(both, ", "), p.DisplayID, run.Branch))
			rep.Type, rep.FilesChanged = failure.FileConflict, both
			return rep
		}
	}
	if head == in.branchAt || head == in.tip {
		in.branchAt = head
		return nil
	}
	if ok, err := in.repo.IsAncestor(ctx, in.branchAt, head); err != nil || !ok {
		return branchReport(p, fmt.Sprintf("branch %s (%s) no longer contains the run's last commit (%s): it was reset or "+
			"rewritten during the run; phase %s was not committed", run.Branch, clip.SHA(head), clip.SHA(in.branchAt), p.DisplayID))
	}
	if in.branchAt != in.tip {
		// Phases landed on the line that your branch was about to get
		// (catchUp): your commits would have to be rebased under them.
		return branchReport(p, fmt.Sprintf("you committed on branch %s (%s) while phases were landing on it: phase %s was "+
			"not committed; rebase your commits onto the run's line (%s), then resume",
			run.Branch, clip.SHA(head), p.DisplayID, clip.SHA(in.tip)))
	}
	// Your commits since the last landing: the line moves onto them, unless
	// an agent made them in one of the run's worktrees (issue 25).
	if rep := in.takeBackAgentCommits(ctx, p, head, in.branchAt); rep != nil {
		return rep
	}
	ch, err := gitx.ChangesBetween(ctx, in.mainDir, in.tip, head)
	if err != nil {
		return branchReport(p, "reading your commits: "+err.Error())
	}
	in.landed = append(in.landed, landedPhase{who: fmt.Sprintf("your commits %s..%s on %s", clip.SHA(in.tip), clip.SHA(head), run.Branch),
		base: in.tip, sha: head, files: allFiles(ch), tipIndex: len(in.tips)})
	in.setTip(head)
	in.branchAt = head
	in.tips = append(in.tips, head)
	return nil
}

// uncommitted lists your uncommitted changes' paths: from the status the
// outside check has just read, or read now when it read none. A change
// made in between makes the fast-forward fail, which undoes the landing.
func (in *integrator) uncommitted(ctx context.Context, outside outsideState) ([]string, bool) {
	if outside.ok {
		return outside.paths(), true
	}
	dirty, err := in.repo.Dirty(ctx)
	if err != nil {
		return nil, false
	}
	return dirtyPaths(dirty), true
}

func branchReport(p *plan.Phase, msg string) *failure.Report {
	rep := failure.Report{Type: failure.BranchChanged, Message: msg, Retryable: false, BlockedOn: "your branch changed during the run"}
	rep.SuggestedActions = failure.Suggest(rep)
	return &rep
}

// dirtyPaths are the paths of `git status --porcelain` lines (both sides
// of a rename).
func dirtyPaths(lines []string) []string {
	var out []string
	for _, l := range lines {
		if len(l) < 4 {
			continue
		}
		from, to, ok := strings.Cut(l[3:], " -> ")
		out = append(out, strings.Trim(from, `"`))
		if ok {
			out = append(out, strings.Trim(to, `"`))
		}
	}
	return out
}

// overlap returns the paths of a that b holds too; a directory in a (an
// untracked "dir/") holds every path under it.
func overlap(a, b []string) []string {
	var out []string
	for _, x := range a {
		for _, y := range b {
			if x == y || (strings.HasSuffix(x, "/") && strings.HasPrefix(y, x)) {
				if !slices.Contains(out, x) {
					out = append(out, x)
				}
			}
		}
	}
	return out
}

// stillOnBranch fails when the user's checkout left the run's branch, for
// the modes that land once at the end.
func (in *integrator) stillOnBranch(ctx context.Context) error {
	run := in.rec.RunCopy()
	current, err := in.repo.CurrentBranch(ctx)
	if err != nil {
		return fmt.Errorf("reading the branch of your checkout: %w", err)
	}
	if run.Branch != "" && current != run.Branch {
		return fmt.Errorf("the run lands on branch %s, but your checkout is on %q now: switch back (%s) and resume",
			run.Branch, current, shell.Join("git", "switch", run.Branch))
	}
	return nil
}

// checkLock halts the landing of phase p when the run no longer holds its
// lock (the lock file was deleted or replaced mid-run).
func (in *integrator) checkLock(p *plan.Phase) *failure.Report {
	if in.lockHeld == nil {
		return nil
	}
	err := in.lockHeld()
	if err == nil {
		return nil
	}
	rep := failure.Report{Type: failure.LockLost, Message: fmt.Sprintf("phase %s was not committed: %v", p.DisplayID, err),
		Retryable: false, BlockedOn: "the run's lock"}
	rep.SuggestedActions = failure.Suggest(rep)
	return &rep
}

// undoLanding takes phase p back off the run's line after your branch
// refused its fast-forward (moved or changed in the instant between the
// check and the landing), so that a resume runs it again rather than find
// it landed, and returns the halt that says so. In auto mode, the only one
// that fast-forwards, the line is your branch: only the integrator's
// memory of it moved. Called with in.mu held.
func (in *integrator) undoLanding(p *plan.Phase, prevTip string, ffErr error) *failure.Report {
	in.setTip(prevTip)
	in.tips = in.tips[:len(in.tips)-1]
	in.landed = in.landed[:len(in.landed)-1]
	return branchReport(p, fmt.Sprintf("phase %s could not land on your branch, which changed while it landed (%v): check your checkout "+
		"(git status, git log), then resume", p.DisplayID, ffErr))
}
