package runstart

import (
	"context"
	"fmt"

	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/line"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// excludePattern keeps .autobuild out of git in every form: without a
// trailing slash the rule matches a file and a symbolic link too, so an
// agent's `ln -s /somewhere .autobuild` is never committed.
const excludePattern = "/" + state.DirName

// CheckStateDir refuses a .autobuild that autobuild must not write into (a
// symbolic link, a file, another user's directory, or one that git tracks,
// as a cloned repository may hold), and keeps it out of git.
func CheckStateDir(ctx context.Context, repo *gitx.Repo, store *state.Store) error {
	if err := store.CheckOwned(); err != nil {
		return exitcode.Refusedf("%w", err)
	}
	tracked, err := repo.Tracked(ctx, state.DirName)
	if err != nil {
		return exitcode.Refusedf("checking whether git tracks %s: %w", state.DirName, err)
	}
	if len(tracked) > 0 {
		return exitcode.Refusedf("git tracks %s in this repository (%s): autobuild keeps its own state there; "+
			"remove it from git (git rm -r --cached %s, then commit) and run again", state.DirName, JoinMax(tracked, 3), state.DirName)
	}
	if err := repo.Exclude(excludePattern); err != nil {
		return exitcode.Refusedf("keeping %s out of git: %w", state.DirName, err)
	}
	return nil
}

// CheckClean refuses to start on a work tree with uncommitted changes to
// tracked files or untracked files that are not ignored.
func CheckClean(ctx context.Context, repo *gitx.Repo, store *state.Store, at func(step string)) error {
	at("checking the work tree")
	dirty, err := repo.Dirty(ctx)
	if err != nil {
		return exitcode.Refusedf("checking the work tree: %w", err)
	}
	if len(dirty) > 0 {
		return exitcode.Refusedf("%s:\n  %s", untrackedAdvice(dirty, dirtyAdvice(store)), JoinMax(dirty, 10))
	}
	return nil
}

// LockState takes the run's lock on .autobuild/. The release it returns
// unlocks it; for a first start that was refused (started false) it first
// takes away what the start made, while the lock is still held. A lock
// that is refused takes nothing away: another run may have made
// .autobuild/ since first was decided, and holds its lock file.
func LockState(store *state.Store, first bool) (*state.Lock, func(started bool), error) {
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

// dirtyAdvice says what to do about uncommitted changes that stop a run
// from starting. They may be the earlier run's own work: left on purpose by
// a complete message-only run, or left by a run killed while it brought its
// changes onto the branch at the end (message-only, single).
func dirtyAdvice(store *state.Store) string {
	const plain = plainDirtyAdvice
	run, err := store.LoadRun()
	if err != nil {
		return plain
	}
	strategy, err := line.StrategyFor(run.CommitMode)
	if err != nil {
		return plain
	}
	advice := strategy.LeftChanges(run.Status)
	if advice == "" {
		return plain
	}
	if run.Status == state.RunRunning {
		// Stopped while it landed only once every phase was done.
		phases, err := store.LoadPhases()
		if err != nil || len(phases) == 0 {
			return plain
		}
		for _, p := range phases {
			if p.Status != state.PhaseComplete && p.Status != state.PhaseSkipped {
				return plain
			}
		}
	}
	return advice
}

// JoinMax joins lines, at most n of them, saying how many more there are.
func JoinMax(lines []string, n int) string {
	out := ""
	for i, l := range lines {
		if i == n {
			out += fmt.Sprintf("\n  ... and %d more", len(lines)-n)
			break
		}
		if i > 0 {
			out += "\n  "
		}
		out += l
	}
	return out
}
