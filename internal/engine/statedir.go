package engine

import (
	"context"

	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// excludePattern keeps .autobuild out of git in every form: without a
// trailing slash the rule matches a file and a symbolic link too, so an
// agent's `ln -s /somewhere .autobuild` is never committed.
const excludePattern = "/" + state.DirName

// checkStateDir refuses a .autobuild that autobuild must not write into (a
// symbolic link, a file, another user's directory, or one that git tracks,
// as a cloned repository may hold), and keeps it out of git.
func checkStateDir(ctx context.Context, repo *gitx.Repo, store *state.Store) error {
	if err := store.CheckOwned(); err != nil {
		return exitcode.Refusedf("%w", err)
	}
	tracked, err := repo.Tracked(ctx, state.DirName)
	if err != nil {
		return exitcode.Refusedf("checking whether git tracks %s: %w", state.DirName, err)
	}
	if len(tracked) > 0 {
		return exitcode.Refusedf("git tracks %s in this repository (%s): autobuild keeps its own state there; "+
			"remove it from git (git rm -r --cached %s, then commit) and run again", state.DirName, joinMax(tracked, 3), state.DirName)
	}
	if err := repo.Exclude(excludePattern); err != nil {
		return exitcode.Refusedf("keeping %s out of git: %w", state.DirName, err)
	}
	return nil
}

// checkClean refuses to start on a work tree with uncommitted changes to
// tracked files or untracked files that are not ignored.
func checkClean(ctx context.Context, repo *gitx.Repo, store *state.Store, st *startup) error {
	st.at("checking the work tree")
	dirty, err := repo.Dirty(ctx)
	if err != nil {
		return exitcode.Refusedf("checking the work tree: %w", err)
	}
	if len(dirty) > 0 {
		return exitcode.Refusedf("%s:\n  %s", untrackedAdvice(dirty, dirtyAdvice(store)), joinMax(dirty, 10))
	}
	return nil
}

// lockState takes the run's lock on .autobuild/. The release it returns
// unlocks it; for a first start that was refused (started false) it first
// takes away what the start made, while the lock is still held. A lock
// that is refused takes nothing away: another run may have made
// .autobuild/ since first was decided, and holds its lock file.
func lockState(store *state.Store, first bool) (*state.Lock, func(started bool), error) {
	lock, err := store.Lock()
	if err != nil {
		return nil, nil, exitcode.Refusedf("%w", err)
	}
	release := func(started bool) {
		if first && !started {
			store.RemoveUnused(lock)
		}
		_ = lock.Unlock()
	}
	// Made again under the lock: a refused start of another run may have
	// taken the empty directories away between Init and Lock.
	if err := store.Init(); err != nil {
		release(false)
		return nil, nil, exitcode.Refusedf("creating %s: %w", store.Dir(), err)
	}
	return lock, release, nil
}
