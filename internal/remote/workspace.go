package remote

import (
	"context"
	"fmt"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/gitx"
)

// onBase is commit's tree as a commit on base: commit itself when its
// parent is base (a worker's commit on the base pushed for it), else a
// new commit (the work of an attempt that continued an earlier one was
// made on that one's commit).
func onBase(ctx context.Context, repo, base, commit string) (string, error) {
	if commit == base {
		return base, nil
	}
	if parent, err := git(ctx, repo, "rev-parse", "--verify", "-q", "--end-of-options", commit+"^1"); err == nil && parent == base {
		return commit, nil
	}
	out, err := gitx.Git(ctx, repo, commitEnv, "commit-tree", commit+"^{tree}", "-p", base, "-m", "autobuild: the worker's work "+commit+" on its attempt's base")
	if err != nil {
		return "", fmt.Errorf("the worker's work %s on the base %s: %w", commit, base, err)
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
