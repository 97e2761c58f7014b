package line

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/autobuild-sh/autobuild/internal/clip"
	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// yourBranch is auto mode: your branch is the run's line. A phase lands
// by a fast-forward of your branch (catchUp), what you commit on it during
// the run is followed (followUser), each phase records its commit, and the
// line's branch takes your branch up as a session ends.
type yourBranch struct{}

func (yourBranch) Mode() state.CommitMode { return state.CommitAuto }
func (yourBranch) Help() string           { return "a commit per phase" }
func (yourBranch) MakesCommits() bool     { return true }

func (yourBranch) admit(ctx context.Context, in *Integrator, l *landing) *failreport.Report {
	return in.followUser(ctx, l.p, allFiles(l.ch), l.outside)
}

// publish moves nothing: the fast-forward (settle) lands the phase.
func (yourBranch) publish(_ context.Context, _ *Integrator, _ string, _ *plan.Phase, land func()) error {
	land()
	return nil
}

func (yourBranch) settle(ctx context.Context, in *Integrator, p *plan.Phase, prevTip string) *failreport.Report {
	return in.catchUp(ctx, p, prevTip)
}

func (yourBranch) recorded(tip string) string { return tip }

// finish has nothing left to land: every phase is on your branch.
func (yourBranch) finish(context.Context, *Integrator, string, []*state.Phase, *state.Store) (string, error) {
	return "", nil
}

func (yourBranch) reconcile(ctx context.Context, r reconciling, tip string) (string, error) {
	lineAt := tip
	tip, err := landedTip(ctx, r.pl, r.repo, r.rec, tip)
	if err != nil {
		return "", err
	}
	if tip, err = followBranch(ctx, r.repo, tip); err != nil {
		return "", err
	}
	if tip != lineAt {
		if err := r.repo.MoveBranch(ctx, state.RefsOf(r.run).Integration(), tip, lineAt); err != nil {
			return "", exitcode.Refusedf("moving the run's line to your branch: %w", err)
		}
	}
	return tip, r.recover(ctx, tip)
}

// SessionEnd: your branch was the line while phases landed; the line's
// branch takes it up once, as the session ends.
func (yourBranch) SessionEnd(ctx context.Context, repo *gitx.Repo, refs state.Refs, tip string) {
	_ = repo.MoveBranch(ctx, refs.Integration(), tip, "")
}

func (yourBranch) CompleteReason(string, string) string { return "" }
func (yourBranch) LeftChanges(state.RunStatus) string   { return "" }

func (yourBranch) Summary(run state.Run, _ string) string {
	if run.Branch == "" {
		return ""
	}
	return "Commits are on branch " + run.Branch + "."
}

func (yourBranch) Commits(_ state.Run, perPhase int) int { return perPhase }

// deferred lands the run's line on your branch once, when the run
// completes (single, message-only): phases land on the line's own branch,
// which reconcile replays onto your commits on resume; final is the mode's
// last step.
type deferred struct {
	mode state.CommitMode
	help string
	// final brings the line onto your branch; it returns the sha of a
	// commit it made.
	final func(ctx context.Context, in *Integrator, title string, phases []*state.Phase, layout *state.Store) (string, error)
	// completeReason, leftComplete and summary are the mode's words.
	completeReason func(finalCommit, branch string) string
	leftComplete   string
	summary        func(run state.Run, stateDir string) string
	commits        func(run state.Run, perPhase int) int
}

// messageOnly leaves the run's changes uncommitted in your work tree,
// with commits.sh to commit them phase by phase.
func messageOnly() deferred {
	return deferred{mode: state.CommitMessageOnly, help: "changes left uncommitted, plus commits.sh",
		final: func(ctx context.Context, in *Integrator, _ string, phases []*state.Phase, layout *state.Store) (string, error) {
			scriptPath := layout.CommitsScriptPath()
			// The script is made from the run's line before the changes leave it.
			script, err := in.commitsScript(ctx, phases, layout)
			if err != nil {
				return "", fmt.Errorf("writing the commands of %s: %w", scriptPath, err)
			}
			if err := in.repo.SquashMerge(ctx, in.mainDir, in.Refs.Integration()); err != nil {
				return "", fmt.Errorf("bringing the run's changes into your work tree: %w", err)
			}
			if err := in.repo.UnstageAll(ctx, in.mainDir); err != nil {
				return "", err
			}
			if err := os.WriteFile(scriptPath, []byte(script), 0o755); err != nil {
				return "", fmt.Errorf("writing %s: %w", scriptPath, err)
			}
			return "", nil
		},
		completeReason: func(string, string) string {
			return "all phases complete; changes are uncommitted in the work tree, commit them with: sh .autobuild/commits.sh"
		},
		leftComplete: "the run in .autobuild/ is complete and left its changes uncommitted, as --commit=message-only does: " +
			"commit them (sh .autobuild/commits.sh makes one commit per phase) or put them aside (git stash -u) before another run",
		summary: func(_ state.Run, stateDir string) string {
			return "Changes are uncommitted in the work tree; commit them phase by phase with: sh " +
				filepath.ToSlash(filepath.Join(cmp.Or(stateDir, ".autobuild/"), "commits.sh"))
		},
		commits: func(_ state.Run, perPhase int) int { return perPhase },
	}
}

// single makes one commit of the whole run on your branch.
func single() deferred {
	return deferred{mode: state.CommitSingle, help: "one commit at the end",
		final: func(ctx context.Context, in *Integrator, title string, phases []*state.Phase, _ *state.Store) (string, error) {
			if err := in.repo.SquashMerge(ctx, in.mainDir, in.Refs.Integration()); err != nil {
				return "", fmt.Errorf("bringing the run's changes onto your branch: %w", err)
			}
			sha, _, err := in.repo.CommitAll(ctx, in.mainDir, singleMessage(title, phases))
			if err != nil {
				return "", fmt.Errorf("making the single commit: %w", err)
			}
			return sha, nil
		},
		completeReason: func(finalCommit, branch string) string {
			if finalCommit == "" {
				return ""
			}
			return fmt.Sprintf("all phases complete; single commit %s on %s", clip.SHA(finalCommit), cmp.Or(branch, "HEAD"))
		},
		summary: func(run state.Run, _ string) string {
			if run.FinalCommit == "" {
				return "Nothing changed: no commit was made."
			}
			return "All phases were committed as one commit: " + clip.SHA(run.FinalCommit) + " on " + cmp.Or(run.Branch, "HEAD") + "."
		},
		commits: func(run state.Run, perPhase int) int {
			if run.FinalCommit != "" {
				return 1 // the phases' work landed as the run's one commit
			}
			return perPhase
		},
	}
}

func (d deferred) Mode() state.CommitMode { return d.mode }
func (d deferred) Help() string           { return d.help }
func (d deferred) MakesCommits() bool     { return d.mode != state.CommitMessageOnly }

func (deferred) admit(context.Context, *Integrator, *landing) *failreport.Report { return nil }

// publish moves the line's branch once to the last of the links landed
// together, and records it once they are landed.
func (deferred) publish(ctx context.Context, in *Integrator, last string, p *plan.Phase, land func()) error {
	if err := in.repo.MoveBranch(ctx, in.Refs.Integration(), last, in.tip); err != nil {
		return fmt.Errorf("integrating phase %s: %w", p.DisplayID, err)
	}
	land()
	in.rec.UpdateRun(func(r *state.Run) { r.IntegrationCommit = last })
	return nil
}

func (deferred) settle(context.Context, *Integrator, *plan.Phase, string) *failreport.Report {
	return nil
}

// recorded is "": the run's line, not your branch; it lands at the end.
func (deferred) recorded(string) string { return "" }

func (d deferred) finish(ctx context.Context, in *Integrator, title string, phases []*state.Phase, layout *state.Store) (string, error) {
	if err := in.Guard.StillOnBranch(ctx); err != nil {
		return "", err
	}
	return d.final(ctx, in, title, phases, layout)
}

func (deferred) reconcile(ctx context.Context, r reconciling, tip string) (string, error) {
	if err := r.recover(ctx, tip); err != nil {
		return "", err
	}
	return replayOnFixes(ctx, r.repo, r.rec, tip, r.at)
}

func (deferred) SessionEnd(context.Context, *gitx.Repo, state.Refs, string) {}

func (d deferred) CompleteReason(finalCommit, branch string) string {
	return d.completeReason(finalCommit, branch)
}

func (d deferred) LeftChanges(status state.RunStatus) string {
	switch status {
	case state.RunComplete:
		return d.leftComplete
	case state.RunRunning:
		return "autobuild was stopped while it brought the finished run's changes onto your branch, so these uncommitted " +
			"changes are probably its own work: put them aside (git stash -u) and run again to land them, or commit them yourself"
	}
	return ""
}

func (d deferred) Summary(run state.Run, stateDir string) string { return d.summary(run, stateDir) }
func (d deferred) Commits(run state.Run, perPhase int) int       { return d.commits(run, perPhase) }
