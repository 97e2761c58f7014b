package state

import (
	"errors"
	"fmt"
	"os"
)

// ErrLockLost is wrapped by Held when the lock file was deleted or replaced
// while the run held it: a second run could then lock a new file of the
// same name and work on the same directory at the same time.
var ErrLockLost = errors.New("the run's lock file was deleted or replaced")

// Held checks that the lock file on disk is still the file this run
// locked. The flock is on the open file, not on the name, so a deleted
// lock file would let another run take a lock of its own.
func (l *Lock) Held() error {
	held, err := l.fl.Stat()
	if err != nil {
		return fmt.Errorf("checking the run's lock: %w", err)
	}
	now, err := os.Stat(l.fl.Path())
	if err != nil || !os.SameFile(held, now) {
		return fmt.Errorf("%w (%s): another autobuild may be running on this directory; "+
			"make sure none is (autobuild status), then resume", ErrLockLost, displayPath(l.fl.Path()))
	}
	return nil
}
