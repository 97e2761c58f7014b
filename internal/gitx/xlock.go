package gitx

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
)

// worktreesLockName is the file in the common git directory that every
// autobuild process of one repository locks around changes to the list of
// worktrees. It is created once and left there (it is empty; git ignores
// it), so no process can delete it while another one holds it.
const worktreesLockName = "autobuild-worktrees.lock"

// lockWorktrees takes the lock on the repository's worktree list, across
// processes: runs in sibling worktrees of one repository share
// .git/worktrees, and git's `worktree prune` in one of them deletes an entry
// that `worktree add` in the other has made but not yet filled in ("could
// not open .git/worktrees/integration/gitdir"). r.mu serializes this
// process's own git commands; the caller holds it. A cancelled ctx stops
// the wait.
func (r *Repo) lockWorktrees(ctx context.Context) (unlock func(), err error) {
	fl := flock.New(filepath.Join(r.commonDir, worktreesLockName))
	ok, err := fl.TryLockContext(ctx, 25*time.Millisecond)
	if err == nil && !ok {
		err = errors.New("not acquired")
	}
	if err != nil {
		return nil, fmt.Errorf("locking the repository's worktree list (%s): %w", fl.Path(), err)
	}
	return func() { _ = fl.Unlock() }, nil
}
