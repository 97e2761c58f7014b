package gitx

import (
	"context"
	"fmt"
	"strings"
)

// Work an executor made elsewhere comes back as a commit in this
// repository's objects (executor.Result.Commit). Landing commits its tree
// (Repo.CommitTree) without a worktree; these read it and, where the work
// must be in a worktree after all (a failed attempt's diff and the retry
// that continues it, a person's review), put it there.

// CommitFiles lists the paths commit's tree changes since base, as
// StatusFiles names them: a nested repository (a gitlink) as its directory
// with a trailing slash.
func CommitFiles(ctx context.Context, dir, base, commit string) ([]string, error) {
	out, err := run(ctx, dir, runOpts{}, "diff-tree", "-r", "-z", "--no-renames", "--raw", base, commit)
	if err != nil {
		return nil, err
	}
	// -z --raw: ":modeA modeB shaA shaB X\0path\0" per entry.
	fields := strings.Split(out, "\x00")
	var files []string
	for i := 0; i+1 < len(fields); i += 2 {
		meta, path := fields[i], fields[i+1]
		if !strings.HasPrefix(meta, ":") || path == "" {
			break
		}
		modes := strings.Fields(meta[1:])
		if len(modes) >= 2 && (modes[0] == "160000" || modes[1] == "160000") {
			path += "/"
		}
		files = append(files, path)
	}
	return files, nil
}

// PutWork puts commit's tree in the worktree at dir, its index and files,
// HEAD staying where it is: the worktree then holds the work uncommitted
// (staged), as if it had been made there. What the worktree held before
// is replaced.
func PutWork(ctx context.Context, dir, commit string) error {
	if _, err := run(ctx, dir, runOpts{}, "add", "-A"); err != nil {
		return fmt.Errorf("staging the worktree before the work of %s: %w", commit, err)
	}
	if _, err := run(ctx, dir, runOpts{}, "read-tree", "--reset", "-u", commit+"^{tree}"); err != nil {
		return fmt.Errorf("putting the work of %s in the worktree: %w", commit, err)
	}
	return nil
}

// CommitDiff is commit's change since base as DiffWorkingTree gives a
// worktree's: a failed attempt's diff when its work is a commit.
func CommitDiff(ctx context.Context, dir, base, commit string) (string, error) {
	return run(ctx, dir, runOpts{}, "diff", "--no-color", "--no-ext-diff", base, commit, "--")
}

// CommitOf makes a commit of tree on parent with message, in git's objects
// only (no ref moves): work kept as a commit, as an executor that works
// elsewhere hands it over.
func (r *Repo) CommitOf(ctx context.Context, tree, parent, message string) (string, error) {
	out, err := r.write(ctx, "", runOpts{stdin: strings.NewReader(message)}, "commit-tree", tree, "-p", parent, "-F", "-")
	if err != nil {
		return "", fmt.Errorf("committing tree %s on %s: %w", tree, parent, err)
	}
	return strings.TrimSpace(out), nil
}
