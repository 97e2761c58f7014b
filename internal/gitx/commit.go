package gitx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Changes lists the paths a commit (or a range of commits) created, modified
// and deleted, relative to the worktree root, each sorted. A rename counts
// as a deletion and a creation.
type Changes struct {
	Created  []string `json:"created,omitempty"`
	Modified []string `json:"modified,omitempty"`
	Deleted  []string `json:"deleted,omitempty"`
}

// Empty reports whether nothing changed.
func (c Changes) Empty() bool {
	return len(c.Created) == 0 && len(c.Modified) == 0 && len(c.Deleted) == 0
}

// CommitAll stages everything in the worktree at dir (`git add -A`: new,
// modified and deleted files, ignored files left out) and commits it with
// message. It returns the new commit and what it changed, or ("", Changes{},
// nil) when there was nothing to commit.
//
// The commit skips the pre-commit and commit-msg hooks (--no-verify): the
// engine has just run the quality gates itself, and a hook that fails or
// waits for input would stall a run that has no one to answer it.
func (r *Repo) CommitAll(ctx context.Context, dir, message string) (string, Changes, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := r.write(ctx, dir, runOpts{}, "add", "-A"); err != nil {
		return "", Changes{}, err
	}
	out, err := r.read(ctx, dir, "diff", "--cached", "--name-status", "-z", "--no-renames")
	if err != nil {
		return "", Changes{}, err
	}
	ch := parseNameStatus(out)
	if ch.Empty() {
		return "", Changes{}, nil
	}
	if _, err := r.write(ctx, dir, runOpts{stdin: strings.NewReader(message)}, "commit", "-q", "--no-verify", "-F", "-"); err != nil {
		return "", Changes{}, err
	}
	sha, err := r.Head(ctx, dir)
	return sha, ch, err
}

// ChangesBetween returns what changed between commits from and to, run in
// the repository or worktree at dir.
func ChangesBetween(ctx context.Context, dir, from, to string) (Changes, error) {
	out, err := run(ctx, dir, runOpts{}, "diff", "--name-status", "-z", "--no-renames", from, to, "--")
	if err != nil {
		return Changes{}, err
	}
	return parseNameStatus(out), nil
}

// parseNameStatus reads `git diff --name-status -z --no-renames` output:
// status and path fields alternate.
func parseNameStatus(out string) Changes {
	var ch Changes
	fields := strings.Split(strings.TrimSuffix(out, "\x00"), "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		status, path := fields[i], fields[i+1]
		switch {
		case status == "":
			continue
		case status[0] == 'A':
			ch.Created = append(ch.Created, path)
		case status[0] == 'D':
			ch.Deleted = append(ch.Deleted, path)
		default: // M, T (type change), U (unmerged)
			ch.Modified = append(ch.Modified, path)
		}
	}
	slices.Sort(ch.Created)
	slices.Sort(ch.Modified)
	slices.Sort(ch.Deleted)
	return ch
}

// DiffWorkingTree returns the changes of the worktree at dir against commit
// from ("" is its HEAD) as a patch, untracked files included, to keep a
// failed attempt's work: against the commit the phase started from, it
// holds the attempt's work whether or not it was committed since. It
// stages into a temporary copy of the index, so the worktree's own index is
// left exactly as it was.
func DiffWorkingTree(ctx context.Context, dir, from string) (string, error) {
	if from == "" {
		from = "HEAD"
	}
	out, err := run(ctx, dir, runOpts{}, "rev-parse", "--git-path", "index")
	if err != nil {
		return "", err
	}
	index := strings.TrimSpace(out)
	if !filepath.IsAbs(index) {
		index = filepath.Join(dir, index)
	}
	tmp, err := os.CreateTemp("", "autobuild-index-*")
	if err != nil {
		return "", fmt.Errorf("creating a temporary index: %w", err)
	}
	defer os.Remove(tmp.Name())
	defer os.Remove(tmp.Name() + ".lock")
	if err := copyInto(tmp, index); err != nil {
		return "", err
	}

	env := runOpts{env: []string{"GIT_INDEX_FILE=" + tmp.Name()}}
	if _, err := run(ctx, dir, env, "add", "-A"); err != nil {
		return "", err
	}
	return run(ctx, dir, env, "diff", "--cached", "--no-color", "--no-ext-diff", from, "--")
}

// copyInto copies the file at src into dst and closes dst. A missing src
// removes dst: git starts from an empty index then, while an empty file
// would be a corrupt one.
func copyInto(dst *os.File, src string) error {
	defer dst.Close()
	in, err := os.Open(src)
	if errors.Is(err, fs.ErrNotExist) {
		dst.Close()
		return os.Remove(dst.Name())
	}
	if err != nil {
		return fmt.Errorf("reading the index: %w", err)
	}
	defer in.Close()
	if _, err := io.Copy(dst, in); err != nil {
		return fmt.Errorf("copying the index: %w", err)
	}
	return dst.Close()
}

// Patch returns `git diff --binary` from commit from to commit to, limited
// to files, run in the repository or worktree at dir: a patch that
// `git apply --cached` applies exactly, binary files included.
func Patch(ctx context.Context, dir, from, to string, files []string) (string, error) {
	args := append([]string{"diff", "--binary", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", from, to, "--"}, files...)
	return run(ctx, dir, runOpts{}, args...)
}

// AuthorTime returns when commit sha was authored, to the second (git
// keeps no finer time). A pick (Pick) keeps it, where the committer time
// becomes the pick's: it is when the change was first committed.
func (r *Repo) AuthorTime(ctx context.Context, sha string) (time.Time, error) {
	out, err := r.read(ctx, "", "log", "-1", "--no-show-signature", "--format=%at", sha, "--")
	if err != nil {
		return time.Time{}, err
	}
	secs, err := strconv.ParseInt(strings.TrimSpace(out), 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("reading the author time of %s from %q: %w", sha, out, err)
	}
	return time.Unix(secs, 0), nil
}

// Message returns the full message of commit sha.
func (r *Repo) Message(ctx context.Context, sha string) (string, error) {
	out, err := r.read(ctx, "", "log", "-1", "--no-show-signature", "--format=%B", sha, "--")
	if err != nil {
		return "", err
	}
	return strings.TrimRight(out, "\n") + "\n", nil
}

// Files lists every path of the changes, sorted.
func (c Changes) Files() []string {
	return slices.Sorted(slices.Values(append(append(slices.Clone(c.Created), c.Modified...), c.Deleted...)))
}
