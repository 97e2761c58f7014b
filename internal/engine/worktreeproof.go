package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/schedule"
)

// notOwnWorktree is a phase's workspace path that holds something else
// than the phase's own worktree, and that autobuild will not remove: the
// attempt is not started there, and the run halts naming what was found.
type notOwnWorktree struct{ found string }

func (e *notOwnWorktree) Error() string { return e.found }

// proveWorktree checks, before an attempt runs an agent in dir, that dir
// is the phase's own worktree: at its expected path under the repository
// root with no symbolic link on the way (an agent that replaced its
// worktree, or .autobuild/worktrees, by a link to your checkout would have
// the retry write there), a real directory, and a worktree of this
// repository as git itself finds it. remake reports that the path holds
// nothing autobuild must keep (missing, a link, a file): a new worktree
// may be made there; found says what was there.
func (w *workspaces) proveWorktree(ctx context.Context, dir string) (found string, remake bool, err error) {
	if err := provePath(w.repo.Root(), dir); err != nil {
		return "", false, err
	}
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return dir + " was gone", true, nil
	case err != nil:
		return "", false, fmt.Errorf("reading the phase's worktree %s: %w", dir, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		target, _ := os.Readlink(dir)
		return fmt.Sprintf("%s was a symbolic link to %s, not the phase's worktree", dir, target), true, nil
	case !fi.IsDir():
		return fmt.Sprintf("%s was a file (%s), not the phase's worktree", dir, fi.Mode()), true, nil
	}
	if err := w.repo.CheckOwnWorktree(ctx, dir); err != nil {
		return "", false, &notOwnWorktree{found: fmt.Sprintf("%s is not the phase's own worktree (%v): "+
			"autobuild did not start the agent there and left it as it is; look at it, remove it, then resume", dir, err)}
	}
	return "", false, nil
}

// provePath checks that root is still the repository's root (a real
// directory where the run found it) and that no part of dir below it is a
// symbolic link or a file: what dir names is under your repository, and
// nowhere else.
func provePath(root, dir string) error {
	if real, err := filepath.EvalSymlinks(root); err != nil || real != root {
		what := "is gone"
		if err == nil {
			what = "now leads to " + real
		}
		return &notOwnWorktree{found: fmt.Sprintf("the repository %s %s (moved or replaced during the run): "+
			"autobuild started no agent; put it back, then resume", root, what)}
	}
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return &notOwnWorktree{found: fmt.Sprintf("the worktree path %s is not under the repository %s", dir, root)}
	}
	parts := strings.Split(rel, string(filepath.Separator))
	at := root
	for _, part := range parts[:len(parts)-1] {
		at = filepath.Join(at, part)
		fi, err := os.Lstat(at)
		if errors.Is(err, fs.ErrNotExist) {
			return nil // made by the worktree's creation
		}
		if err != nil {
			return fmt.Errorf("reading %s: %w", at, err)
		}
		if !fi.IsDir() {
			what := "a file"
			if fi.Mode()&fs.ModeSymlink != 0 {
				target, _ := os.Readlink(at)
				what = "a symbolic link to " + target
			}
			return &notOwnWorktree{found: fmt.Sprintf("%s is %s, not a directory: the phase's worktree %s would be "+
				"elsewhere than under your repository; autobuild started no agent; remove it, then resume", at, what, dir)}
		}
	}
	return nil
}

// workspaceFailure is the attempt's failure when its workspace could not
// be made ready: a path that is not the phase's own worktree halts the
// run (a retry would find it as it is), anything else is autobuild's own
// trouble, retried.
func workspaceFailure(req schedule.AttemptRequest, err error) failreport.Report {
	var not *notOwnWorktree
	if !errors.As(err, &not) {
		return infraFailure(req, err)
	}
	rep := failreport.Report{Type: failreport.OutsideWorktree, Message: not.found, Retryable: false, Attempt: req.Number,
		BlockedOn: "the phase's worktree", SuggestedActions: []string{
			"look at what is there now (ls -la, git worktree list), keep what you need and remove it, then resume: " +
				"the phase gets a new worktree",
		}}
	return rep
}
