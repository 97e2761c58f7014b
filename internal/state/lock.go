package state

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gofrs/flock"
)

// LockedError is returned by Lock when another process holds the lock.
type LockedError struct {
	// PID is the holder's process id, 0 when it could not be read.
	PID int
}

// Error says who holds the lock and what to do about it.
func (e *LockedError) Error() string {
	if e.PID > 0 {
		return fmt.Sprintf("another autobuild run (pid %d) is using .autobuild/: wait for it to finish, or stop it (kill %d)", e.PID, e.PID)
	}
	return "another autobuild run is using .autobuild/: wait for it to finish, or stop it"
}

// Lock is the held lock of one run on a state directory.
type Lock struct {
	fl *flock.Flock
}

// Lock takes the run lock on .autobuild/lock (creating the directory if
// needed) and writes this process's pid into the file. The lock is an
// flock(2), so the kernel releases it when the process dies, even by
// kill -9: a crashed run never blocks the next one. It does not block: a
// lock held elsewhere gives a *LockedError naming the holder's pid. Locks are
// per open file, so a second Lock in the same process fails too.
func (s *Store) Lock() (*Lock, error) {
	if err := os.MkdirAll(s.Dir(), 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", s.Dir(), err)
	}
	fl, err := s.tryLock()
	if err != nil {
		return nil, err
	}
	if err := writeLockPID(s.LockPath(), os.Getpid()); err != nil {
		_ = fl.Unlock()
		return nil, err
	}
	s.removeTemps()
	return &Lock{fl: fl}, nil
}

// lockTries bounds how often Lock takes a lock whose file a refused start
// removed meanwhile.
const lockTries = 3

// tryLock flocks the lock file. A refused first start removes the lock
// file it held (RemoveUnused); a run that opened that file just before
// would hold a lock on a file no longer at the path, beside a run that
// locks the new one. So the locked file must still be the one at the path,
// or the lock is taken again.
func (s *Store) tryLock() (*flock.Flock, error) {
	for range lockTries {
		fl := flock.New(s.LockPath(), flock.SetFlag(os.O_CREATE|os.O_RDWR), flock.SetPermissions(0o644))
		ok, err := fl.TryLock()
		if err != nil {
			return nil, fmt.Errorf("locking %s: %w", displayPath(s.LockPath()), err)
		}
		if !ok {
			return nil, &LockedError{PID: readLockPID(s.LockPath())}
		}
		held, herr := fl.Stat()
		atPath, perr := os.Stat(s.LockPath())
		if herr == nil && perr == nil && os.SameFile(held, atPath) {
			return fl, nil
		}
		_ = fl.Close()
		if err := os.MkdirAll(s.Dir(), 0o755); err != nil {
			return nil, fmt.Errorf("creating %s: %w", s.Dir(), err)
		}
	}
	return nil, &LockedError{PID: readLockPID(s.LockPath())}
}

// removeTemps deletes the temporary files that a run killed in the middle of
// an atomic write left behind. Only the lock's holder writes state files, so
// any temporary file found by it is stale. Best effort: readers skip them
// anyway.
func (s *Store) removeTemps() {
	for _, dir := range []string{s.Dir(), s.PhasesDir()} {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if !e.IsDir() && isTemp(e.Name()) {
				_ = os.Remove(filepath.Join(dir, e.Name()))
			}
		}
	}
}

// Unlock releases the lock. The file stays: removing it would race with a
// run that is opening it.
func (l *Lock) Unlock() error {
	if err := l.fl.Unlock(); err != nil {
		return fmt.Errorf("unlocking %s: %w", displayPath(l.fl.Path()), err)
	}
	return nil
}

// pidWidth is the fixed width of the pid record, so rewriting it is one
// same-size write in place: a reader sees the old or the new pid, and the
// file is never truncated under the flock (the lock is on the file, which a
// rename would replace).
const pidWidth = 20

func writeLockPID(path string, pid int) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("writing the pid to %s: %w", displayPath(path), err)
	}
	rec := fmt.Sprintf("%-*d\n", pidWidth-1, pid)
	if _, err := f.WriteAt([]byte(rec), 0); err != nil {
		_ = f.Close()
		return fmt.Errorf("writing the pid to %s: %w", displayPath(path), err)
	}
	return f.Close()
}

// readLockPID returns the pid recorded in the lock file, 0 if unreadable.
func readLockPID(path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || pid < 0 {
		return 0
	}
	return pid
}
