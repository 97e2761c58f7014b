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

// checkoutResult puts commit's work in the workspace, its index and files,
// HEAD staying where it is: the phase's commit is made from it on landing.
// When commit was made on base (the workspace's state pushed for the
// attempt) its tree is taken as it is. An attempt a coordinator before
// this one sent was made on that coordinator's base: its change since the
// base it shares with HEAD is merged onto HEAD (a three-way read-tree that
// takes only trivial merges), and a conflict is an error.
func checkoutResult(ctx context.Context, ws, commit, base string) error {
	parent, err := git(ctx, ws, "rev-parse", "--verify", "--end-of-options", commit+"^1")
	if err != nil {
		return fmt.Errorf("reading the worker's commit %s: %w", commit, err)
	}
	if parent == base {
		if _, err := git(ctx, ws, "add", "-A"); err != nil {
			return fmt.Errorf("staging the workspace before the worker's work: %w", err)
		}
		if _, err := git(ctx, ws, "read-tree", "--reset", "-u", commit+"^{tree}"); err != nil {
			return fmt.Errorf("checking out the worker's commit %s in the workspace: %w", commit, err)
		}
		return nil
	}
	if _, err := git(ctx, ws, "reset", "--quiet", "--hard", "HEAD"); err != nil {
		return fmt.Errorf("clearing the workspace before the worker's work: %w", err)
	}
	if _, err := git(ctx, ws, "clean", "-fdq"); err != nil {
		return fmt.Errorf("clearing the workspace before the worker's work: %w", err)
	}
	mb, err := git(ctx, ws, "merge-base", commit, "HEAD")
	if err != nil {
		return fmt.Errorf("the worker's commit %s shares no history with the workspace: %w", commit, err)
	}
	if _, err := git(ctx, ws, "read-tree", "-m", "-u", "--aggressive", mb, "HEAD", commit); err != nil {
		return fmt.Errorf("merging the worker's commit %s into the workspace: %w", commit, err)
	}
	if out, _ := git(ctx, ws, "ls-files", "--unmerged"); out != "" {
		_, _ = git(ctx, ws, "reset", "--quiet", "--hard", "HEAD")
		return fmt.Errorf("the worker's commit %s conflicts with what landed since its base", commit)
	}
	return nil
}
