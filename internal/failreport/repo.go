package failreport

// Failure types about the user's repository rather than the phase's work.
const (
	// BranchChanged means the user's checkout is no longer on the branch
	// the run lands on (they switched branches, or rewrote it): the run
	// halts rather than commit to the wrong branch. Not retryable.
	BranchChanged Type = "branch_changed"
	// OutsideWorktree means an attempt changed files outside its worktree:
	// the user's work tree or the repository's .git/config.
	OutsideWorktree Type = "outside_worktree"
)

// NestedRepository means a phase's change holds a git repository of its
// own (a directory with a .git): committed, it would become a gitlink and
// its files would be lost.
const NestedRepository Type = "nested_repository"

// LockLost means the run's lock file was deleted or replaced during the
// run, so another run may be working on the same state: the run halts
// before it lands anything more.
const LockLost Type = "lock_lost"

// RedBase means the quality gates already fail on the run's base, before
// the run, naming failing tests: the run stops before any phase is judged
// (exit 3) and no phase is charged. The fix is the base's, not a phase's
// (or --allow-red-base). Not retryable.
const RedBase Type = "red_base"

// DiskFull means the disk ran out of space under autobuild's own work (a
// worktree, a commit, a log): not the agent's fault, and not fixed by a
// retry. Not retryable.
const DiskFull Type = "disk_full"
