// Package gitx is every git operation of the engine (docs/running.md): the
// repository checks before a run, the phases' worktrees and branches,
// committing a phase's work, bringing it onto the run's line (a pick made
// in git's objects, line.go), and moving the user's branch. It shells out
// to the git binary so the user's own git and configuration apply, and so
// the result is exactly what the user would get by hand; the repository's
// hooks do not run (noHooks).
//
// Git is not safe for concurrent metadata operations (parallel "git worktree
// add" races on .git/worktrees), so every method of Repo that changes
// something is serialized through one mutex; reads run freely.
package gitx

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
)

// ErrNotRepo is returned (wrapped) by Open for a directory outside any git
// repository, or inside one without a work tree.
var ErrNotRepo = errors.New("not a git repository")

// ErrNoCommits is returned (wrapped) by Head when the repository has no
// commit yet: the engine needs one to start from.
var ErrNoCommits = errors.New("the repository has no commits yet")

// Fallback identity for commits on machines with no user.email configured
// (a fresh CI runner): committing must not fail there.
const (
	fallbackName  = "autobuild"
	fallbackEmail = "autobuild@localhost"
)

// Repo is one git repository, opened at its work tree root.
type Repo struct {
	root      string   // the work tree root, written once by Open
	commonDir string   // the common git dir (shared by all worktrees), written once by Open
	identity  []string // "-c" settings for commits when the user has no identity, written once by Open
	// sign is commit.gpgSign: git commit honours it, commit-tree (Pick)
	// only when told. Written once by Open.
	sign bool

	// mu serializes the mutating git commands that touch what worktrees
	// share: the worktree list, shared branches and refs, the user's
	// checkout. The commands in a worktree that only one caller uses
	// (CommitOwn, the clean and checkout of ReuseWorktree) and the object
	// writes of Pick run without it.
	mu sync.Mutex
}

// Open returns the repository containing dir.
func Open(ctx context.Context, dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("resolving %s: %w", dir, err)
	}
	// Absolute, as git resolves it: joined onto abs, a relative one would
	// follow a symbolic link in abs (a shell's PWD) the wrong way up.
	out, err := run(ctx, abs, runOpts{}, "rev-parse", "--path-format=absolute", "--show-toplevel", "--git-common-dir")
	if err != nil {
		msg := err.Error()
		switch {
		case strings.Contains(msg, "not a git repository"):
			return nil, fmt.Errorf("%s is not inside a git repository: run autobuild from your project's repository (git init first): %w", abs, ErrNotRepo)
		case strings.Contains(msg, "must be run in a work tree"):
			return nil, fmt.Errorf("%s is a bare git repository without a work tree: run autobuild from a checkout: %w", abs, ErrNotRepo)
		}
		return nil, fmt.Errorf("opening the git repository at %s: %w", abs, err)
	}
	ls := lines(out)
	if len(ls) != 2 {
		return nil, fmt.Errorf("opening the git repository at %s: unexpected rev-parse output %q", abs, out)
	}
	r := &Repo{root: ls[0], commonDir: ls[1]}
	r.identity, r.sign = commitSettings(ctx, r.root)
	return r, nil
}

// commitSettings reads, in one git command, what commits need: the "-c"
// settings that give them an author when the user has configured no email
// (a configured identity, or the GIT_AUTHOR_*/GIT_COMMITTER_* variables,
// which override config, is always the user's), and whether they are
// signed (commit.gpgSign).
func commitSettings(ctx context.Context, root string) (identity []string, sign bool) {
	// Exit status 1 is "none of these is set".
	out, _ := run(ctx, root, runOpts{}, "config", "--get-regexp", `^(user\.email|user\.name|commit\.gpgsign)$`)
	var email, name string
	for _, l := range lines(out) {
		key, value, _ := strings.Cut(l, " ")
		switch strings.ToLower(key) {
		case "user.email":
			email = value
		case "user.name":
			name = value
		case "commit.gpgsign":
			sign = gitBool(value)
		}
	}
	if strings.TrimSpace(email) != "" {
		return nil, sign
	}
	identity = []string{"user.email=" + fallbackEmail}
	if strings.TrimSpace(name) == "" {
		identity = append(identity, "user.name="+fallbackName)
	}
	return identity, sign
}

// gitBool reads a boolean config value as git does; a key set with no
// value ("[commit] gpgsign") is true.
func gitBool(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "true", "yes", "on", "1":
		return true
	}
	return false
}

// Root returns the absolute path of the repository's work tree root, as git
// reports it (symbolic links resolved).
func (r *Repo) Root() string { return r.root }

// path resolves a directory argument: "" is the root, a relative path is
// relative to the root.
func (r *Repo) path(dir string) string {
	switch {
	case dir == "":
		return r.root
	case filepath.IsAbs(dir):
		return filepath.Clean(dir)
	default:
		return filepath.Join(r.root, dir)
	}
}

// read runs a read-only git command in dir.
func (r *Repo) read(ctx context.Context, dir string, args ...string) (string, error) {
	return run(ctx, r.path(dir), runOpts{config: r.identity}, args...)
}

// write runs a mutating git command in dir. The caller holds r.mu.
func (r *Repo) write(ctx context.Context, dir string, o runOpts, args ...string) (string, error) {
	o.config = append(append([]string(nil), r.identity...), o.config...)
	return run(ctx, r.path(dir), o, args...)
}

// MaintainOnce runs the repository's automatic maintenance once
// (`git maintenance run --auto`: it does nothing unless the repository's
// own thresholds call for it), which every command of the run skipped.
func (r *Repo) MaintainOnce(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, err := run(ctx, r.root, runOpts{}, "maintenance", "run", "--auto", "--quiet")
	return err
}
