package state

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// DirName is the name of the state directory at the repository root.
const DirName = ".autobuild"

// Store reads and writes one repository's .autobuild/ directory (docs/state.md).
// It holds no open files and no cached state, so several Stores (or
// processes, such as `autobuild watch`) may look at one directory at once;
// the run's writer serializes itself with Lock.
type Store struct {
	// root is the repository root; written once by Open.
	root string
}

// Open returns the Store of the repository at root. It touches nothing on
// disk: Init creates the directory, Exists says whether a run is there.
func Open(root string) *Store {
	return &Store{root: root}
}

// Root returns the repository root the Store was opened on.
func (s *Store) Root() string { return s.root }

// Dir returns the state directory, root/.autobuild.
func (s *Store) Dir() string { return filepath.Join(s.root, DirName) }

// RunPath returns the path of run.json.
func (s *Store) RunPath() string { return filepath.Join(s.Dir(), "run.json") }

// PhasesDir returns the directory holding the phase files.
func (s *Store) PhasesDir() string { return filepath.Join(s.Dir(), "phases") }

// PhasePath returns the path of the phase file of id (sanitized by FileIDOf).
func (s *Store) PhasePath(id phaseid.ID) string {
	return filepath.Join(s.PhasesDir(), "phase-"+string(FileIDOf(id))+".json")
}

// LogsDir returns the directory holding the execution log and attempt logs.
func (s *Store) LogsDir() string { return filepath.Join(s.Dir(), "logs") }

// AttemptLogPath returns logs/phase-<id>.attempt-<n>.log: the full agent and
// gate output of attempt n of phase id.
func (s *Store) AttemptLogPath(id phaseid.ID, n int) string {
	return filepath.Join(s.LogsDir(), AttemptFileName(id, n, "log"))
}

// AttemptDiffPath returns logs/phase-<id>.attempt-<n>.diff: the diff a failed
// attempt left in its worktree, kept for the user.
func (s *Store) AttemptDiffPath(id phaseid.ID, n int) string {
	return filepath.Join(s.LogsDir(), AttemptFileName(id, n, "diff"))
}

// ExecutionLogPath returns logs/execution.log, one line per event.
func (s *Store) ExecutionLogPath() string { return filepath.Join(s.LogsDir(), "execution.log") }

// WorktreesDir returns the directory under which the phases' worktrees live.
func (s *Store) WorktreesDir() string { return filepath.Join(s.Dir(), "worktrees") }

// CommitsScriptPath returns commits.sh, written in message-only mode.
func (s *Store) CommitsScriptPath() string { return filepath.Join(s.Dir(), "commits.sh") }

// LockPath returns the path of the lock file.
func (s *Store) LockPath() string { return filepath.Join(s.Dir(), "lock") }

// Exists reports whether the directory holds a run, that is whether run.json
// exists. A directory holding only a lock file (or nothing) is not a run.
func (s *Store) Exists() bool {
	_, err := os.Stat(s.RunPath())
	return err == nil
}

// Init creates the state directory and its phases, logs and worktrees
// subdirectories. It is idempotent and leaves existing files alone.
func (s *Store) Init() error {
	if err := s.CheckOwned(); err != nil {
		return err
	}
	for _, dir := range []string{s.PhasesDir(), s.LogsDir(), s.WorktreesDir()} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("creating %s: %w", dir, err)
		}
	}
	// Checked again: MkdirAll follows a link that appeared meanwhile.
	return s.CheckOwned()
}

// Remove deletes the state directory's contents (for --fresh); the engine
// removes the worktrees through git first. The lock file is kept: the caller
// normally holds it, and deleting it would let a second run lock a new file
// of the same name while this one is still running. The history files are
// kept too: they are the record across runs. A missing directory is not an
// error.
func (s *Store) Remove() error {
	// Never empty what a link points at.
	if err := s.CheckOwned(); err != nil {
		return err
	}
	entries, err := os.ReadDir(s.Dir())
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading %s: %w", s.Dir(), err)
	}
	for _, e := range entries {
		if s.keptByRemove(e.Name()) {
			continue
		}
		if err := os.RemoveAll(filepath.Join(s.Dir(), e.Name())); err != nil {
			return fmt.Errorf("removing %s: %w", filepath.Join(DirName, e.Name()), err)
		}
	}
	return nil
}

// DirExists reports whether the state directory is there (as anything).
func (s *Store) DirExists() bool {
	_, err := os.Lstat(s.Dir())
	return err == nil
}

// RemoveUnused takes away what Init and Lock made for a start that was
// then refused: the lock file, the empty phases/, logs/ and worktrees/,
// and the directory, each only when it holds nothing else (os.Remove, never
// a recursive removal), so nothing written by anyone else goes. Best
// effort. It needs the start's lock, still held: without it (nil, or
// already unlocked) nothing is removed, since another run may have made
// the directory meanwhile and hold its lock file. Call it before Unlock.
func (s *Store) RemoveUnused(held *Lock) {
	if held == nil || !held.fl.Locked() || s.CheckOwned() != nil {
		return
	}
	_ = os.Remove(s.LockPath())
	for _, dir := range []string{s.PhasesDir(), s.LogsDir(), s.WorktreesDir()} {
		_ = os.Remove(dir)
	}
	_ = os.Remove(s.Dir())
}
