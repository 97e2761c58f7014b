package gitx

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// noOptionalLocks keeps read commands such as status from taking the index
// lock to refresh stat data, which would make a concurrent git command of
// the user's (or of another phase) fail.
var noOptionalLocks = []string{"GIT_OPTIONAL_LOCKS=0"}

// Dirty returns the `git status --porcelain` lines of the work tree at the
// root, untracked files included; an empty result means clean.
func (r *Repo) Dirty(ctx context.Context) ([]string, error) {
	out, err := run(ctx, r.root, runOpts{env: noOptionalLocks}, "status", "--porcelain")
	if err != nil {
		return nil, err
	}
	return lines(out), nil
}

// StatusFiles returns the paths (relative to the worktree root, sorted,
// untracked files listed one by one) that differ from HEAD in the worktree
// at dir: what a commit of everything would contain. A rename lists both
// paths. A submodule whose commit moved is listed even when the
// repository's settings tell status to ignore it (submodule.<name>.ignore,
// diff.ignoreSubmodules): `git add -A` stages it all the same, and the
// list is what CommitOwn stages.
func StatusFiles(ctx context.Context, dir string) ([]string, error) {
	out, err := run(ctx, dir, runOpts{env: noOptionalLocks}, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignore-submodules=none")
	if err != nil {
		return nil, err
	}
	var files []string
	fields := strings.Split(out, "\x00")
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if len(f) < 4 {
			continue
		}
		files = append(files, f[3:])
		// Renames and copies carry the source path as the next field.
		if strings.ContainsAny(f[:2], "RC") {
			if i+1 < len(fields) && fields[i+1] != "" {
				files = append(files, fields[i+1])
			}
			i++
		}
	}
	slices.Sort(files)
	return slices.Compact(files), nil
}

// HeadAndStatusFiles is Head and StatusFiles of the worktree at dir in one
// git command (`status --porcelain=v2 --branch`): the commit HEAD points
// at, and the paths that differ from it, as StatusFiles lists them.
func HeadAndStatusFiles(ctx context.Context, dir string) (head string, files []string, err error) {
	out, err := run(ctx, dir, runOpts{env: noOptionalLocks}, "status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all", "--ignore-submodules=none")
	if err != nil {
		return "", nil, err
	}
	fields := strings.Split(out, "\x00")
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		switch {
		case strings.HasPrefix(f, "# branch.oid "):
			head = strings.TrimPrefix(f, "# branch.oid ")
		case strings.HasPrefix(f, "1 "):
			files = append(files, nthField(f, 8))
		case strings.HasPrefix(f, "2 "):
			// A rename or copy: its source is the next field.
			files = append(files, nthField(f, 9))
			if i+1 < len(fields) && fields[i+1] != "" {
				files = append(files, fields[i+1])
			}
			i++
		case strings.HasPrefix(f, "u "):
			files = append(files, nthField(f, 10))
		case strings.HasPrefix(f, "? "):
			files = append(files, f[2:])
		}
	}
	if head == "" || head == "(initial)" {
		return "", nil, ErrNoCommits
	}
	slices.Sort(files)
	return head, slices.Compact(files), nil
}

// nthField is what follows the first n space-separated fields of s: the
// path of a porcelain v2 entry, spaces and all.
func nthField(s string, n int) string {
	for range n {
		_, rest, ok := strings.Cut(s, " ")
		if !ok {
			return ""
		}
		s = rest
	}
	return s
}

// Exclude adds pattern as a line of the repository's info/exclude (in the
// common git dir, so it applies to every worktree) unless it is already
// there. autobuild uses it so its own .autobuild/ never dirties the tree and
// never lands in a commit.
func (r *Repo) Exclude(pattern string) error {
	pattern = strings.TrimSpace(pattern)
	if pattern == "" {
		return errors.New("exclude: empty pattern")
	}
	r.mu.Lock()
	defer r.mu.Unlock()

	path := filepath.Join(r.commonDir, "info", "exclude")
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	for l := range strings.SplitSeq(string(data), "\n") {
		if strings.TrimSpace(l) == pattern {
			return nil
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", filepath.Dir(path), err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("opening %s: %w", path, err)
	}
	line := pattern + "\n"
	if len(data) > 0 && data[len(data)-1] != '\n' {
		line = "\n" + line
	}
	if _, err := f.WriteString(line); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// Head returns the commit checked out in the worktree at dir ("" is the
// repository root). A repository without commits gives ErrNoCommits.
func (r *Repo) Head(ctx context.Context, dir string) (string, error) {
	out, err := r.read(ctx, dir, "rev-parse", "-q", "--verify", "HEAD^{commit}")
	if err != nil {
		if exitCode(err) == 1 {
			return "", fmt.Errorf("reading HEAD in %s: %w: make a first commit", r.path(dir), ErrNoCommits)
		}
		return "", err
	}
	return strings.TrimSpace(out), nil
}

// CurrentBranch returns the short name of the branch checked out at the
// root, or "" when HEAD is detached.
func (r *Repo) CurrentBranch(ctx context.Context) (string, error) {
	out, err := r.read(ctx, "", "symbolic-ref", "-q", "--short", "HEAD")
	if err != nil {
		if exitCode(err) == 1 {
			return "", nil
		}
		return "", err
	}
	return strings.TrimSpace(out), nil
}

// BranchHead returns, in one git command, the branch checked out in the
// root's work tree ("" when HEAD is detached) and the commit HEAD points at:
// CurrentBranch and Head together.
func (r *Repo) BranchHead(ctx context.Context) (branch, head string, err error) {
	out, err := r.read(ctx, "", "rev-parse", "HEAD^{commit}", "--abbrev-ref", "HEAD")
	if err != nil {
		return "", "", err
	}
	fields := strings.Fields(out)
	if len(fields) != 2 {
		return "", "", fmt.Errorf("git rev-parse HEAD: unexpected output %q", out)
	}
	head, branch = fields[0], fields[1]
	if branch == "HEAD" {
		branch = ""
	}
	return branch, head, nil
}

// IsAncestor reports whether commit a is an ancestor of commit b (a commit
// is its own ancestor).
func (r *Repo) IsAncestor(ctx context.Context, a, b string) (bool, error) {
	_, err := r.read(ctx, "", "merge-base", "--is-ancestor", a, b)
	switch {
	case err == nil:
		return true, nil
	case exitCode(err) == 1:
		return false, nil
	default:
		return false, err
	}
}
