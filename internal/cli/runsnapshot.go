package cli

import (
	"errors"
	"path/filepath"

	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// runSnapshot finds the repository holding dir and reads its run's state
// files, for the commands that act on a run (status, review, steer): no
// run there, or state it cannot read, is a refusal (exit 3).
func runSnapshot(dir string) (*state.Store, *state.Snapshot, error) {
	root, err := findRoot(dir)
	if err != nil {
		return nil, nil, err
	}
	store := state.Open(root)
	snap, err := store.Snapshot()
	if errors.Is(err, state.ErrNoRun) || (err == nil && snap.Run == nil) {
		return nil, nil, &exitcode.Error{Code: exitcode.Refused,
			Err: errors.New("no autobuild run in " + filepath.Join(root, ".autobuild") + ": start one with autobuild PLAN.md --commit=auto --agent ...")}
	}
	if err != nil {
		return nil, nil, &exitcode.Error{Code: exitcode.Refused, Err: err}
	}
	return store, snap, nil
}
