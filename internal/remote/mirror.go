package remote

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// A worker keeps, under its --dir:
//
//	mirrors/<hash of the remote>.git   a bare repository fetched from the remote
//	work/<run-id>/<phase>-<seq>        an attempt's worktree of that mirror, removed after it
//
// Several attempts (and several worker processes sharing a --dir) use one
// mirror: its creation and its worktree list take mirrors/<hash>.lock.

// Workspace is an attempt's worktree on a worker, at the attempt's base.
type Workspace struct {
	// Path is the worktree; Mirror the bare repository it belongs to.
	Path, Mirror string
	// Base is the commit it was checked out at.
	Base string
	// Branch is its branch in the mirror (autobuild/<run>/phase-<id>).
	Branch string
	lock   string
}

// PrepareWorkspace fetches the attempt's base from the remote into the
// worker's mirror under dir and checks it out in a worktree of its own. A
// worktree left by an earlier try of the same attempt is replaced.
func PrepareWorkspace(ctx context.Context, dir string, req AttemptRequest) (Workspace, error) {
	if err := checkRef(ctx, req.RunID, req.BaseRef); err != nil {
		return Workspace{}, err
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return Workspace{}, fmt.Errorf("the worker's directory: %w", err)
	}
	sum := sha256.Sum256([]byte(req.Remote))
	name := hex.EncodeToString(sum[:8])
	ws := Workspace{
		Mirror: filepath.Join(dir, "mirrors", name+".git"),
		Path:   filepath.Join(dir, "work", req.RunID, string(state.FileIDOf(req.PhaseID))+"-"+strconv.Itoa(req.Seq)),
		Base:   req.Base,
		Branch: "autobuild/" + req.RunID + "/phase-" + string(state.FileIDOf(req.PhaseID)),
		lock:   filepath.Join(dir, "mirrors", name+".lock"),
	}
	if err := CheckRefFormat("refs/heads/" + ws.Branch); err != nil {
		return Workspace{}, err
	}
	if err := os.MkdirAll(filepath.Join(dir, "mirrors"), 0o755); err != nil {
		return Workspace{}, fmt.Errorf("the worker's directory: %w", err)
	}
	if err := ws.ensureMirror(ctx, req.Remote); err != nil {
		return Workspace{}, err
	}
	// Fetches run side by side (git keeps each ref's update and each pack
	// safe); a base the mirror already has is not fetched again.
	if _, err := git(ctx, ws.Mirror, "cat-file", "-e", req.Base+"^{commit}"); err != nil {
		if _, err := git(ctx, ws.Mirror, "fetch", "--quiet", "--no-tags", "--no-write-fetch-head", req.Remote, "+"+req.BaseRef+":"+req.BaseRef); err != nil {
			return Workspace{}, fmt.Errorf("fetching the attempt's base %s from %s: %w", req.BaseRef, req.Remote, err)
		}
		got, err := git(ctx, ws.Mirror, "rev-parse", "--verify", "--end-of-options", req.BaseRef+"^{commit}")
		if err != nil || got != req.Base {
			return Workspace{}, fmt.Errorf("%s on %s holds %q, not the attempt's base %s (%v)", req.BaseRef, req.Remote, got, req.Base, err)
		}
	}
	// The worktree list is the mirror's, shared by every attempt.
	unlock, err := lockFile(ctx, ws.lock)
	if err != nil {
		return Workspace{}, err
	}
	defer unlock()
	if _, err := os.Stat(ws.Path); err == nil {
		_, _ = git(ctx, ws.Mirror, "worktree", "remove", "--force", ws.Path)
		if err := gitx.RemoveAll(ws.Path); err != nil {
			return Workspace{}, fmt.Errorf("removing an earlier try's worktree %s: %w", ws.Path, err)
		}
		_, _ = git(ctx, ws.Mirror, "worktree", "prune")
	}
	if err := os.MkdirAll(filepath.Dir(ws.Path), 0o755); err != nil {
		return Workspace{}, fmt.Errorf("the worker's directory: %w", err)
	}
	if _, err := git(ctx, ws.Mirror, "worktree", "add", "--quiet", "-B", ws.Branch, ws.Path, req.Base); err != nil {
		return Workspace{}, fmt.Errorf("checking out the attempt's base %s: %w", req.Base, err)
	}
	return ws, nil
}

// ensureMirror creates the bare mirror once.
func (ws Workspace) ensureMirror(ctx context.Context, remote string) error {
	if _, err := os.Stat(filepath.Join(ws.Mirror, "HEAD")); err == nil {
		return nil
	}
	unlock, err := lockFile(ctx, ws.lock)
	if err != nil {
		return err
	}
	defer unlock()
	if _, err := os.Stat(filepath.Join(ws.Mirror, "HEAD")); err == nil {
		return nil
	}
	// Made aside and renamed: a mirror with a HEAD is a whole one.
	tmp := fmt.Sprintf("%s.tmp-%d", ws.Mirror, os.Getpid())
	_ = os.RemoveAll(tmp)
	if _, err := git(ctx, "", "init", "--quiet", "--bare", tmp); err != nil {
		return fmt.Errorf("creating the worker's mirror of %s: %w", remote, err)
	}
	if err := os.Rename(tmp, ws.Mirror); err != nil {
		return fmt.Errorf("creating the worker's mirror of %s: %w", remote, err)
	}
	return nil
}

// Commit makes the worktree's work one commit on the base (every change,
// untracked files included, as `git add -A` sees them) and returns it; ""
// when the work changes nothing.
func (ws Workspace) Commit(ctx context.Context, message string) (string, error) {
	if _, err := git(ctx, ws.Path, "add", "-A"); err != nil {
		return "", fmt.Errorf("staging the attempt's work: %w", err)
	}
	tree, err := git(ctx, ws.Path, "write-tree")
	if err != nil {
		return "", fmt.Errorf("writing the attempt's tree: %w", err)
	}
	baseTree, err := git(ctx, ws.Path, "rev-parse", "--verify", "--end-of-options", ws.Base+"^{tree}")
	if err != nil {
		return "", fmt.Errorf("reading the base's tree: %w", err)
	}
	if tree == baseTree {
		return "", nil
	}
	out, err := gitx.Git(ctx, ws.Path, commitEnv, "commit-tree", tree, "-p", ws.Base, "-m", message)
	if err != nil {
		return "", fmt.Errorf("committing the attempt's work: %w", err)
	}
	return strings.TrimSpace(out), nil
}

// Patch is the worktree's work as a diff against the base, cut at MaxPatch.
func (ws Workspace) Patch(ctx context.Context) string {
	if _, err := git(ctx, ws.Path, "add", "-A"); err != nil {
		return ""
	}
	out, err := gitx.Git(ctx, ws.Path, nil, "diff", "--cached", "--binary", ws.Base)
	if err != nil {
		return ""
	}
	if len(out) > MaxPatch {
		out = out[:MaxPatch] + "\n# autobuild: the patch is cut here\n"
	}
	return out
}

// Push pushes commit to ref on remote.
func (ws Workspace) Push(ctx context.Context, remote, runID, ref, commit string) error {
	if err := checkRef(ctx, runID, ref); err != nil {
		return err
	}
	if _, err := git(ctx, ws.Mirror, "push", "--quiet", "--no-verify", remote, "+"+commit+":"+ref); err != nil {
		return fmt.Errorf("pushing the attempt's commit to %s on %s: %w", ref, remote, err)
	}
	return nil
}

// DeletePushed deletes ref on remote (a try's own ref it pushed).
func (ws Workspace) DeletePushed(ctx context.Context, remote, runID, ref string) error {
	if err := checkRef(ctx, runID, ref); err != nil {
		return err
	}
	if _, err := git(ctx, ws.Mirror, "push", "--quiet", "--no-verify", remote, ":"+ref); err != nil {
		return fmt.Errorf("deleting %s on %s: %w", ref, remote, err)
	}
	return nil
}

// Remove removes the worktree and its branch; the mirror stays for the next
// attempt.
func (ws Workspace) Remove(ctx context.Context) error {
	unlock, err := lockFile(ctx, ws.lock)
	if err != nil {
		return err
	}
	defer unlock()
	_, rmErr := git(ctx, ws.Mirror, "worktree", "remove", "--force", ws.Path)
	if rmErr != nil {
		if err := gitx.RemoveAll(ws.Path); err != nil {
			return fmt.Errorf("removing the attempt's worktree %s: %w", ws.Path, err)
		}
		_, _ = git(ctx, ws.Mirror, "worktree", "prune")
	}
	_, _ = git(ctx, ws.Mirror, "branch", "--quiet", "-D", ws.Branch)
	return nil
}

// lockFile takes the flock at path, waiting as long as ctx allows.
func lockFile(ctx context.Context, path string) (func(), error) {
	fl := flock.New(path)
	ok, err := fl.TryLockContext(ctx, 50*time.Millisecond)
	if err != nil || !ok {
		return nil, fmt.Errorf("locking the worker's mirror (%s): %w", path, err)
	}
	return func() { _ = fl.Unlock() }, nil
}
