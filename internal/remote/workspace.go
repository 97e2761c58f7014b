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

// checkoutResult puts commit's tree in the workspace, its index and files,
// HEAD staying at the base: the phase's commit is made from it on landing.
func checkoutResult(ctx context.Context, ws, commit string) error {
	if _, err := git(ctx, ws, "add", "-A"); err != nil {
		return fmt.Errorf("staging the workspace before the worker's work: %w", err)
	}
	if _, err := git(ctx, ws, "read-tree", "--reset", "-u", commit+"^{tree}"); err != nil {
		return fmt.Errorf("checking out the worker's commit %s in the workspace: %w", commit, err)
	}
	return nil
}
