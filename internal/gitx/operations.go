package gitx

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// An agent told not to commit may still start a merge, a cherry-pick, a
// revert, a rebase or `git am` in its worktree and stop half way. The
// phase's commit is made with commit-tree, which, unlike git commit, does
// not conclude them: their state (MERGE_HEAD and the like) would stay, and
// the next reset in that worktree would refuse to run ("in the middle of a
// merge"). ForgetOperations ends them the way `--quit` does: the state is
// forgotten, the index and the files are left as the agent left them.

// operation is a git operation that can be left in progress: the file or
// directory in the worktree's git dir that says so, and the command that
// forgets it.
type operation struct {
	marker string
	name   string
	quit   []string
}

var operations = []operation{
	{"MERGE_HEAD", "merge", []string{"merge", "--quit"}},
	{"CHERRY_PICK_HEAD", "cherry-pick", []string{"cherry-pick", "--quit"}},
	{"REVERT_HEAD", "revert", []string{"revert", "--quit"}},
	{"sequencer", "cherry-pick or revert of several commits", []string{"cherry-pick", "--quit"}},
	{"rebase-merge", "rebase", []string{"rebase", "--quit"}},
	{filepath.Join("rebase-apply", "applying"), "git am", []string{"am", "--quit"}},
	{"rebase-apply", "rebase", []string{"rebase", "--quit"}},
}

// ForgetOperations ends every operation left in progress in the worktree
// at dir (see above) and returns their names; none when there was none,
// which costs no git command.
func (r *Repo) ForgetOperations(ctx context.Context, dir string) ([]string, error) {
	gitDir, err := worktreeGitDir(r.path(dir))
	if err != nil {
		return nil, err
	}
	var forgotten []string
	for _, op := range operations {
		if _, err := os.Lstat(filepath.Join(gitDir, op.marker)); err != nil {
			continue
		}
		if _, err := r.write(ctx, dir, runOpts{}, op.quit...); err != nil {
			return forgotten, fmt.Errorf("forgetting the %s left in progress: %w", op.name, err)
		}
		forgotten = append(forgotten, op.name)
	}
	return forgotten, nil
}

// worktreeGitDir returns the git dir of the worktree at p: the directory
// its .git file names, or its .git directory.
func worktreeGitDir(p string) (string, error) {
	dotGit := filepath.Join(p, ".git")
	fi, err := os.Lstat(dotGit)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", dotGit, err)
	}
	if fi.IsDir() {
		return dotGit, nil
	}
	b, err := os.ReadFile(dotGit)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", dotGit, err)
	}
	dir := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(b)), "gitdir:"))
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(p, dir)
	}
	return dir, nil
}
