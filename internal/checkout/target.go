package checkout

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/clip"
	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/shell"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// CheckTargetBranch refuses to start on a detached HEAD (its commits would
// be reachable only from the reflog) and to resume a run on another branch
// than the one it lands on.
func CheckTargetBranch(ctx context.Context, repo *gitx.Repo, run *state.Run) (string, error) {
	current, err := repo.CurrentBranch(ctx)
	if err != nil {
		return "", exitcode.Refusedf("reading the current branch: %w", err)
	}
	switch {
	case current == "" && run == nil:
		return "", exitcode.Refusedf("HEAD is detached: autobuild commits onto a branch, and commits on a detached HEAD are lost " +
			"as soon as you check out something else; make a branch first: git switch -c autobuild-work")
	case run == nil || run.Branch == "" || current == run.Branch:
		return current, nil
	case current == "":
		return "", exitcode.Refusedf("this run lands on branch %s, but HEAD is detached: %s, then run again", run.Branch, shell.Join("git", "switch", run.Branch))
	}
	return "", exitcode.Refusedf("this run lands on branch %s, but your checkout is on %s: %s, then run again (or start over on %s with --fresh)",
		run.Branch, current, shell.Join("git", "switch", run.Branch), current)
}

// Follow checks, in auto mode and before a phase lands, that the user's
// checkout is still on the run's branch and where that branch is: head,
// and whether the line must move onto it (mine: the user committed on it
// since the last landing; the line then names them as a landed change, so
// an overlap names them, and the phase is picked on top). branchAt is
// where the run last moved your branch, tip and tips the line's. A
// switched branch, or one that no longer holds the run's line, is a halt.
// Called with the line's lock held.
func (g *Guard) Follow(ctx context.Context, p *plan.Phase, phaseFiles []string, outside State,
	branchAt, tip string, tips []string) (head string, mine bool, rep *failreport.Report) {
	run := g.rec.RunCopy()
	current, head, err := g.repo.BranchHead(ctx)
	if err != nil {
		return "", false, BranchReport(p, "reading the branch of your checkout: "+err.Error())
	}
	if run.Branch != "" && current != run.Branch {
		where := "HEAD is detached"
		if current != "" {
			where = "your checkout is on " + current
		}
		return "", false, BranchReport(p, fmt.Sprintf("the run lands on branch %s, but %s now: phase %s was not committed; "+
			"switch back (%s) and resume", run.Branch, where, p.DisplayID, shell.Join("git", "switch", run.Branch)))
	}
	if dirty, ok := g.uncommitted(ctx, outside); ok {
		if both := overlap(dirty, phaseFiles); len(both) > 0 {
			rep := BranchReport(p, fmt.Sprintf("your uncommitted changes in %s are in files phase %s changes, so its commit "+
				"cannot land on %s: commit or stash them, then resume", strings.Join(both, ", "), p.DisplayID, run.Branch))
			rep.Type, rep.FilesChanged = failreport.FileConflict, both
			return "", false, rep
		}
	}
	if head == branchAt || head == tip {
		return head, false, nil
	}
	if ok, err := g.repo.IsAncestor(ctx, branchAt, head); err != nil || !ok {
		return "", false, BranchReport(p, fmt.Sprintf("branch %s (%s) no longer contains the run's last commit (%s): it was reset or "+
			"rewritten during the run; phase %s was not committed", run.Branch, clip.SHA(head), clip.SHA(branchAt), p.DisplayID))
	}
	if branchAt != tip {
		// Phases landed on the line that your branch was about to get
		// (catchUp): your commits would have to be rebased under them.
		return "", false, BranchReport(p, fmt.Sprintf("you committed on branch %s (%s) while phases were landing on it: phase %s was "+
			"not committed; rebase your commits onto the run's line (%s), then resume",
			run.Branch, clip.SHA(head), p.DisplayID, clip.SHA(tip)))
	}
	// Your commits since the last landing: the line moves onto them, unless
	// an agent made them in one of the run's worktrees (issue 25).
	if rep := g.takeBackAgentCommits(ctx, p, head, tips, branchAt); rep != nil {
		return "", false, rep
	}
	return head, true, nil
}

// uncommitted lists your uncommitted changes' paths: from the status the
// outside check has just read, or read now when it read none. A change
// made in between makes the fast-forward fail, which undoes the landing.
func (g *Guard) uncommitted(ctx context.Context, outside State) ([]string, bool) {
	if outside.OK {
		return outside.paths(), true
	}
	dirty, err := g.repo.Dirty(ctx)
	if err != nil {
		return nil, false
	}
	return dirtyPaths(dirty), true
}

func BranchReport(p *plan.Phase, msg string) *failreport.Report {
	rep := failreport.Report{Type: failreport.BranchChanged, Message: msg, Retryable: false, BlockedOn: "your branch changed during the run"}
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

// StillOnBranch fails when the user's checkout left the run's branch, for
// the modes that land once at the end.
func (g *Guard) StillOnBranch(ctx context.Context) error {
	run := g.rec.RunCopy()
	current, err := g.repo.CurrentBranch(ctx)
	if err != nil {
		return fmt.Errorf("reading the branch of your checkout: %w", err)
	}
	if run.Branch != "" && current != run.Branch {
		return fmt.Errorf("the run lands on branch %s, but your checkout is on %q now: switch back (%s) and resume",
			run.Branch, current, shell.Join("git", "switch", run.Branch))
	}
	return nil
}
