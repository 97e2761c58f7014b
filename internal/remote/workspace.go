package remote

import (
	"context"
	"fmt"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// snapshotCommit is the workspace as it is, as a commit on base: base
// itself when nothing changed, else a commit of every change (an earlier
// attempt's work a continuation starts from).
func snapshotCommit(ctx context.Context, ws, base string, id phaseid.Display) (string, error) {
	// The usual case, a fresh worktree at the base, costs one status.
	if st, err := git(ctx, ws, "status", "--porcelain", "--untracked-files=all", "--ignore-submodules=none"); err == nil && st == "" {
		if head, err := git(ctx, ws, "rev-parse", "--verify", "HEAD"); err == nil && head == base {
			return base, nil
		}
	}
	if _, err := git(ctx, ws, "add", "-A"); err != nil {
		return "", fmt.Errorf("staging phase %s's workspace for its base: %w", id, err)
	}
	tree, err := git(ctx, ws, "write-tree")
	if err != nil {
		return "", fmt.Errorf("phase %s's workspace as a tree: %w", id, err)
	}
	baseTree, err := git(ctx, ws, "rev-parse", "--verify", "--end-of-options", base+"^{tree}")
	if err != nil {
		return "", fmt.Errorf("phase %s's base %s: %w", id, base, err)
	}
	if tree == baseTree {
		return base, nil
	}
	out, err := gitx.Git(ctx, ws, commitEnv, "commit-tree", tree, "-p", base, "-m", "autobuild: the work phase "+string(id)+"'s attempt continues")
	if err != nil {
		return "", fmt.Errorf("committing phase %s's earlier work as its attempt's base: %w", id, err)
	}
	return strings.TrimSpace(out), nil
}

// mergeOnto is the worker's commit made on another coordinator's base (an
// attempt re-attached after a crash) as a commit on onto: its change since
// the base the two share merged in git's objects (merge-tree), no worktree
// touched; a conflict is an error naming the paths.
func mergeOnto(ctx context.Context, repo, onto, commit string) (string, error) {
	out, err := gitx.Git(ctx, repo, nil, "merge-tree", "--write-tree", "--name-only", "--no-messages", "-z", onto, commit)
	fields := strings.Split(out, "\x00")
	if err != nil {
		// Exit status 1 is a conflict: the tree, then the conflicted
		// paths; anything else is git failing.
		if len(fields) < 2 || fields[1] == "" {
			return "", fmt.Errorf("merging the worker's commit %s onto %s: %w", commit, onto, err)
		}
		var conflicted []string
		for _, f := range fields[1:] {
			if f == "" {
				break
			}
			conflicted = append(conflicted, f)
		}
		return "", fmt.Errorf("the worker's commit %s conflicts with what landed since its base (%s)", commit, strings.Join(conflicted, ", "))
	}
	merged, err := gitx.Git(ctx, repo, commitEnv, "commit-tree", fields[0], "-p", onto, "-m", "autobuild: the worker's commit "+commit+" on the line")
	if err != nil {
		return "", fmt.Errorf("committing the worker's commit %s onto %s: %w", commit, onto, err)
	}
	return strings.TrimSpace(merged), nil
}
