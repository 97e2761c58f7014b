package gitx

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
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
//
// Two things `--quit` does are undone, because they are not the agent's
// to do: a pending autostash (the agent's uncommitted work, put aside by
// `merge --autostash` or `rebase.autoStash`) would be stored in the stash
// list every worktree shares, so it is written back into the worktree's
// files instead; and a rebase would leave HEAD detached, so HEAD is put back on
// the branch the rebase was on.

// operation is a git operation that can be left in progress: the file or
// directory in the worktree's git dir that says so, the command that
// forgets it, and where it keeps an autostash and the branch it is on.
type operation struct {
	marker    string
	name      string
	quit      []string
	autostash string
	headName  string
}

var operations = []operation{
	{marker: "MERGE_HEAD", name: "merge", quit: []string{"merge", "--quit"}, autostash: "MERGE_AUTOSTASH"},
	{marker: "CHERRY_PICK_HEAD", name: "cherry-pick", quit: []string{"cherry-pick", "--quit"}},
	{marker: "REVERT_HEAD", name: "revert", quit: []string{"revert", "--quit"}},
	{marker: "sequencer", name: "cherry-pick or revert of several commits", quit: []string{"cherry-pick", "--quit"}},
	{marker: "rebase-merge", name: "rebase", quit: []string{"rebase", "--quit"},
		autostash: "rebase-merge/autostash", headName: "rebase-merge/head-name"},
	{marker: "rebase-apply/applying", name: "git am", quit: []string{"am", "--quit"}},
	{marker: "rebase-apply", name: "rebase", quit: []string{"rebase", "--quit"},
		autostash: "rebase-apply/autostash", headName: "rebase-apply/head-name"},
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
		if err := r.forget(ctx, dir, gitDir, op); err != nil {
			return forgotten, fmt.Errorf("ending the %s left in progress: %w", op.name, err)
		}
		forgotten = append(forgotten, op.name)
	}
	return forgotten, nil
}

// forget ends op in the worktree at dir, whose git dir is gitDir.
func (r *Repo) forget(ctx context.Context, dir, gitDir string, op operation) error {
	stash, err := takeFile(gitDir, op.autostash, true)
	if err != nil {
		return err
	}
	branch, err := takeFile(gitDir, op.headName, false)
	if err != nil {
		return err
	}
	if _, err := r.write(ctx, dir, runOpts{}, op.quit...); err != nil {
		return err
	}
	if strings.HasPrefix(branch, "refs/heads/") {
		if _, err := r.write(ctx, dir, runOpts{}, "symbolic-ref", "HEAD", branch); err != nil {
			return err
		}
	}
	if stash != "" {
		if err := r.applyStash(ctx, dir, stash); err != nil {
			return fmt.Errorf("putting back the agent's autostashed work (commit %s, which `git stash apply %s` applies): %w", stash, stash, err)
		}
	}
	return nil
}

// applyStash writes the change stash commit holds (its tree against its
// first parent) into the files of the worktree at dir, all of it or none
// (`git apply`). Not `git stash apply`: it refuses while the operation
// left files in conflict in the index, and the index is not touched here.
func (r *Repo) applyStash(ctx context.Context, dir, stash string) error {
	patch, err := r.read(ctx, dir, "diff", "--binary", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", stash+"^1", stash, "--")
	if err != nil || patch == "" {
		return err
	}
	_, err = r.write(ctx, dir, runOpts{stdin: strings.NewReader(patch)}, "apply", "--whitespace=nowarn", "-")
	return err
}

// takeFile returns the trimmed content of the file name under gitDir, ""
// when name is "" or there is no such file; remove removes it after.
func takeFile(gitDir, name string, remove bool) (string, error) {
	if name == "" {
		return "", nil
	}
	path := filepath.Join(gitDir, name)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	if remove {
		if err := os.Remove(path); err != nil {
			return "", fmt.Errorf("removing %s: %w", path, err)
		}
	}
	return strings.TrimSpace(string(b)), nil
}

// StageConflicted stages, as they are in the worktree at dir, the paths
// the index holds in conflict (conflict markers and all), and returns
// them. A commit would take them so (git add -A); a reset that folds the
// agent's commits refuses to run while they are in conflict.
func (r *Repo) StageConflicted(ctx context.Context, dir string) ([]string, error) {
	out, err := r.read(ctx, dir, "ls-files", "-u", "-z")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, entry := range strings.Split(out, "\x00") {
		_, path, ok := strings.Cut(entry, "\t")
		if ok && (len(paths) == 0 || paths[len(paths)-1] != path) {
			paths = append(paths, path)
		}
	}
	if err := r.addPaths(ctx, dir, paths); err != nil {
		return nil, err
	}
	return paths, nil
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
		dir = filepath.Join(p, dir) // worktree.useRelativePaths (git 2.48+)
	}
	return filepath.Clean(dir), nil
}

// CheckOwnWorktree checks that the worktree at dir is still linked to this
// repository as git made it: its .git file names a directory of this
// repository's worktrees, whose gitdir file names this .git file back. An
// agent that removed its .git file, ran git init, or pointed the file at
// your repository's git dir or at another worktree's fails it: git there
// would act on what is not the phase's (a reset would move your branch).
func (r *Repo) CheckOwnWorktree(dir string) error {
	p := r.path(dir)
	gitDir, err := r.ownGitDir(p)
	if err != nil {
		return err
	}
	back, err := os.ReadFile(filepath.Join(gitDir, "gitdir"))
	if err != nil {
		return fmt.Errorf("%s names %s, which is no worktree's: %w", filepath.Join(p, ".git"), gitDir, err)
	}
	named := strings.TrimSpace(string(back))
	if !filepath.IsAbs(named) {
		named = filepath.Join(gitDir, named) // worktree.useRelativePaths (git 2.48+)
	}
	if realPath(named) != realPath(filepath.Join(p, ".git")) {
		return fmt.Errorf("%s names the git dir of another worktree (%s)", filepath.Join(p, ".git"), named)
	}
	return nil
}
