package checkout

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/clip"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/sanitize"
	"github.com/autobuild-sh/autobuild/internal/shell"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// gitDirChanges names what changed between two reads in what every
// worktree shares with your checkout: the common git dir's files (info/
// exclude, hooks, alternates, …; config is compared on its own) and the
// branches and tags that existed before (one moved or deleted). The run's
// own branches and the kept autostashes are autobuild's, a branch another
// worktree has checked out is being worked on there; your branch is
// checked by agentCommits. A branch or tag the agent created is not named:
// nothing of yours changed.
func (g *Guard) gitDirChanges(before, after State) []string {
	var changed []string
	// A read that failed (nil) has nothing to compare.
	for _, rel := range slices.Sorted(maps.Keys(unionKeys(before.Files, after.Files))) {
		if rel == "config" || before.Files == nil || after.Files == nil || before.Files[rel] == after.Files[rel] {
			continue
		}
		changed = append(changed, g.repo.CommonPath(rel))
	}
	branch := g.rec.RunCopy().Branch
	var checkedOut map[string]bool
	for _, name := range slices.Sorted(maps.Keys(before.Refs)) {
		was, now := before.Refs[name], after.Refs[name]
		if after.Refs == nil || was == now || !yoursToCheck(name) || (branch != "" && name == "refs/heads/"+branch) {
			continue
		}
		if checkedOut == nil {
			checkedOut = g.repo.CheckedOut()
		}
		if checkedOut[name] {
			continue // someone works on it in another worktree (or another run lands on it)
		}
		short := strings.TrimPrefix(strings.TrimPrefix(name, "refs/heads/"), "refs/tags/")
		undo := shell.Join("git", "update-ref", name, was)
		if now == "" {
			changed = append(changed, fmt.Sprintf("%s (deleted; it was at %s: %s puts it back)", short, clip.SHA(was), undo))
		} else {
			changed = append(changed, fmt.Sprintf("%s (moved from %s to %s: %s puts it back)", short, clip.SHA(was), clip.SHA(now), undo))
		}
	}
	return changed
}

// yoursToCheck reports whether a ref is the user's to compare: not a
// branch of a run (this one's, or another run's in a sibling worktree,
// autobuild/<run-id>/…) nor a kept autostash, which autobuild itself
// writes while phases run. A branch of yours named autobuild/… is not
// compared either.
func yoursToCheck(name string) bool {
	return !strings.HasPrefix(name, "refs/heads/autobuild-kept/") && !strings.HasPrefix(name, "refs/heads/autobuild/")
}

func unionKeys(a, b map[string]string) map[string]bool {
	out := make(map[string]bool, len(a))
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// AgentCommits checks your branch after an attempt: commits on it that
// autobuild did not put there (its landings, and your own commits it
// followed) and that a worktree of the run made (its HEAD reflog names
// them: an agent that ran `git checkout --ignore-other-worktrees main &&
// git commit` there) are taken off it (takeBackAgentCommits). Commits made
// in your checkout are yours and left to landing (followUser). nil when
// there is nothing to say.
func (g *Guard) AgentCommits(ctx context.Context, p *plan.Phase, before, after State, log io.Writer) *failreport.Report {
	branch := g.rec.RunCopy().Branch
	if branch == "" {
		return nil
	}
	ref := "refs/heads/" + branch
	was, now := before.Refs[ref], after.Refs[ref]
	if was == "" || now == "" || was == now {
		return nil
	}
	if now == g.line.Tip() {
		// Your branch moved by a landing of the run's (in auto mode it is
		// the line): nothing of an agent's on it. Checked before taking mu,
		// which a landing about to verify holds while it waits for this
		// attempt to queue (line/landqueue.go, collect).
		return nil
	}
	var rep *failreport.Report
	g.line.WithTips(func(tips []string) { rep = g.takeBackAgentCommits(ctx, p, now, tips, was) })
	if rep != nil {
		fmt.Fprintf(log, "# autobuild: %s\n", rep.Message)
	}
	return rep
}

// takeBackAgentCommits looks at the commits of your branch at now down to
// the first one autobuild put there (a tip of the run's line, or also):
// when a worktree of the run made any of them, your branch goes back to
// that commit (your checkout's files and index never moved with them, so
// they match it again), the commits are kept on a branch of their own,
// and the returned halt names both. tips are the line's, read under its
// lock, which the caller holds.
func (g *Guard) takeBackAgentCommits(ctx context.Context, p *plan.Phase, now string, tips []string, also ...string) *failreport.Report {
	branch := g.rec.RunCopy().Branch
	allowed := map[string]bool{}
	for _, t := range append(slices.Clone(tips), also...) {
		allowed[t] = true
	}
	if allowed[now] {
		return nil
	}
	chain, err := g.repo.FirstParents(ctx, now, 1000)
	if err != nil {
		return nil
	}
	var foreign []string
	back := ""
	for _, c := range chain {
		if allowed[c] {
			back = c
			break
		}
		foreign = append(foreign, c)
	}
	made, err := g.repo.WorktreeCommits(state.Open(g.mainDir).WorktreesDir())
	if err != nil {
		return nil
	}
	var where []string
	for _, c := range foreign {
		if wt, ok := made[c]; ok && !slices.Contains(where, state.RelPath(g.mainDir, wt)) {
			where = append(where, state.RelPath(g.mainDir, wt))
		}
	}
	if len(where) == 0 {
		return nil // yours, made in your checkout
	}
	names := make([]string, 0, len(foreign))
	for _, c := range foreign {
		subject, _ := g.repo.Message(ctx, c)
		names = append(names, fmt.Sprintf("%s %q", clip.SHA(c), sanitize.Text(clip.FirstLine(subject))))
	}
	ref := "refs/heads/" + branch
	what := fmt.Sprintf("an agent committed on your branch %s from the run's worktree %s (%s)", branch,
		strings.Join(where, ", "), strings.Join(names, ", "))
	kept := "autobuild-kept/" + strings.TrimPrefix(g.refs.Phase(p.ID), "autobuild/") + "-on-" + branch
	var msg string
	keptMade := back != "" && g.repo.MoveBranch(ctx, kept, now, "") == nil
	switch {
	case back == "":
		msg = fmt.Sprintf("%s, and %s no longer holds the run's last commit: left as it is; look at it (git log %s), then resume",
			what, branch, branch)
	case !keptMade:
		msg = fmt.Sprintf("%s: left as it is; %s takes them back off it, then resume", what, shell.Join("git", "update-ref", ref, back, now))
	case g.repo.MoveBranch(ctx, branch, back, now) != nil:
		msg = fmt.Sprintf("%s: kept on branch %s, but %s moved again meanwhile: %s takes them back off it, then resume",
			what, kept, branch, shell.Join("git", "update-ref", ref, back))
	default:
		msg = fmt.Sprintf("%s: autobuild put %s back at %s and kept the commits on branch %s; look at them (git log %s..%s), "+
			"pick what you want, then resume", what, branch, clip.SHA(back), kept, branch, kept)
	}
	look := "look at the agent's commits: git log " + clip.SHA(now)
	if keptMade {
		look = fmt.Sprintf("look at the agent's commits: git log %s..%s", branch, kept)
	}
	rep := failreport.Report{Type: failreport.OutsideWorktree, Message: msg, Retryable: false, BlockedOn: "commits on your branch",
		SuggestedActions: []string{look, "take what you want onto your branch (git cherry-pick), then resume",
			"tell the agent in the plan to commit only in its own worktree, on its own branch"}}
	return &rep
}
