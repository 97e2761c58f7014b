package gitx

import (
	"context"
	"fmt"
	"strings"
)

// KeepTree keeps tree reachable as a commit on parent under ref (a full
// ref name outside refs/heads, so no branch clean-up deletes it), and
// returns the commit. The engine keeps a phase's work there while it awaits
// review: the worktree may be removed (a kill -9, then a resume removes
// stale worktrees), the work may not.
func (r *Repo) KeepTree(ctx context.Context, ref, tree, parent, message string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	out, err := r.write(ctx, "", runOpts{stdin: strings.NewReader(message)}, "commit-tree", tree, "-p", parent, "-F", "-")
	if err != nil {
		return "", fmt.Errorf("keeping the work for review: %w", err)
	}
	sha := strings.TrimSpace(out)
	if _, err := r.write(ctx, "", runOpts{}, "update-ref", "-m", "autobuild: kept for review", ref, sha); err != nil {
		return "", fmt.Errorf("keeping the work for review: %w", err)
	}
	return sha, nil
}

// DeleteRef deletes ref (a full ref name); a missing ref is fine.
func (r *Repo) DeleteRef(ctx context.Context, ref string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := r.read(ctx, "", "show-ref", "--verify", "--quiet", ref); err != nil {
		if exitCode(err) == 1 {
			return nil
		}
		return err
	}
	_, err := r.write(ctx, "", runOpts{}, "update-ref", "-d", ref)
	return err
}
