package cli

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// runSnapshot finds the repository holding dir and reads its run's state
// files, for the commands that act on a run (status, review, steer): no
// run there, or state it cannot read, is a refusal (exit 3).
func runSnapshot(dir string) (*state.Store, *state.Snapshot, error) {
	root, err := repoRootOf(dir)
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

// dirArg is the DIR argument of status, watch and report: "." when none is
// given.
func dirArg(args []string) string {
	if len(args) == 1 {
		return args[0]
	}
	return "."
}

// repoRootOf is findRoot for a command: a directory it cannot read (one
// deleted under the shell) is a refusal (exit 3) that names it.
func repoRootOf(dir string) (string, error) {
	root, err := findRoot(dir)
	if err != nil {
		return "", &exitcode.Error{Code: exitcode.Refused, Err: fmt.Errorf("find the repository of %s: %w", dir, err)}
	}
	return root, nil
}
