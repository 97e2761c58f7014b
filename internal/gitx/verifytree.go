package gitx

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Verifying what lands together (docs/running.md, "The line stays green")
// needs the combined tree checked out somewhere that is neither your
// checkout nor a phase's worktree: one detached worktree of its own,
// re-pointed from one combination to the next.

// TreeOf returns the tree of commit.
func (r *Repo) TreeOf(ctx context.Context, commit string) (string, error) {
	out, err := r.read(ctx, "", "rev-parse", "--verify", "-q", commit+"^{tree}")
	if err != nil {
		return "", fmt.Errorf("reading the tree of %s: %w", commit, err)
	}
	return strings.TrimSpace(out), nil
}

// CheckoutDetached makes path a detached worktree at commit with exactly
// commit's files: a worktree there is re-pointed (checkout -f, and what
// the last gates left untracked removed, ignored files kept as build
// caches), else one is added, whatever a crash left at path removed first.
func (r *Repo) CheckoutDetached(ctx context.Context, path, commit string) error {
	p := r.path(path)
	if _, err := os.Stat(p); err == nil {
		if r.ownWorktree(p) == nil {
			_, err := r.write(ctx, p, runOpts{}, "checkout", "-q", "--detach", "-f", commit)
			if err == nil {
				_, err = r.write(ctx, p, runOpts{}, "clean", "-q", "-f", "-d")
			}
			if err == nil {
				return nil
			}
		}
	}
	err := r.withWorktreeList(ctx, func() error {
		if err := r.guard(p); err != nil {
			return err
		}
		if _, err := os.Lstat(p); err == nil {
			if err := r.removeWorktree(ctx, p); err != nil {
				return err
			}
		} else if _, err := r.write(ctx, "", runOpts{}, "worktree", "prune"); err != nil {
			return err
		}
		_, err := r.write(ctx, "", runOpts{}, "worktree", "add", "-q", "--detach", "-f", p, commit)
		if err != nil {
			// Half-written files (a full disk) would hold the space a
			// phase's worktree needs.
			_ = r.removeWorktree(context.WithoutCancel(ctx), p)
		}
		return withDiskNote(err, filepath.Dir(p))
	})
	if err != nil {
		return fmt.Errorf("checking out %s for verification: %w", commit, err)
	}
	return nil
}

// PutWorkOnto moves the worktree at dir, whose HEAD holds a phase's own
// commit, onto tip: its branch is set to tip and its files hold the
// phase's change picked onto tip, uncommitted (a retry's agent finds its
// earlier work there, on top of what landed since). When the change does
// not pick cleanly onto tip the files are tip's. It returns whether the
// change was kept.
func (r *Repo) PutWorkOnto(ctx context.Context, dir, tip string) (bool, error) {
	head, err := run(ctx, dir, runOpts{}, "rev-parse", "--verify", "HEAD")
	if err != nil {
		return false, fmt.Errorf("reading the worktree's HEAD: %w", err)
	}
	head = strings.TrimSpace(head)
	combined, conflicted, err := r.Pick(ctx, tip, head, false)
	if err != nil {
		// Not a conflict: git itself failed (a signing program that
		// refused, say). Moving on would drop the earlier change.
		return false, fmt.Errorf("picking the worktree's change onto %s: %w", tip, err)
	}
	kept := len(conflicted) == 0
	files := tip
	if kept {
		files = combined
	}
	if _, err := r.write(ctx, dir, runOpts{}, "reset", "-q", "--hard", files); err != nil {
		return false, fmt.Errorf("moving the worktree onto %s: %w", tip, err)
	}
	if _, err := r.write(ctx, dir, runOpts{}, "reset", "-q", tip); err != nil {
		return false, fmt.Errorf("moving the worktree onto %s: %w", tip, err)
	}
	return kept, nil
}
