package gitx

import (
	"bytes"
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
// What `--quit` would do with a pending autostash (the agent's uncommitted
// work, put aside by `merge --autostash` or `rebase.autoStash`) is not the
// agent's to do: it would be stored in the stash list every worktree
// shares. It is written back into the worktree's files instead. Where the
// operation left HEAD (a rebase leaves it detached) is AttachHead's.

// operation is a git operation that can be left in progress: the file or
// directory in the worktree's git dir that says so, the command that
// forgets it (none: the file is all there is), and where it keeps an
// autostash.
type operation struct {
	marker    string
	name      string
	quit      []string
	autostash string
}

var operations = []operation{
	{marker: "MERGE_HEAD", name: "merge", quit: []string{"merge", "--quit"}, autostash: "MERGE_AUTOSTASH"},
	// `merge --squash --autostash` leaves the autostash alone, for the
	// next `git commit` to apply.
	{marker: "MERGE_AUTOSTASH", name: "squash merge's autostash", autostash: "MERGE_AUTOSTASH"},
	{marker: "CHERRY_PICK_HEAD", name: "cherry-pick", quit: []string{"cherry-pick", "--quit"}},
	{marker: "REVERT_HEAD", name: "revert", quit: []string{"revert", "--quit"}},
	{marker: "sequencer", name: "cherry-pick or revert of several commits", quit: []string{"cherry-pick", "--quit"}},
	{marker: "rebase-merge", name: "rebase", quit: []string{"rebase", "--quit"}, autostash: "rebase-merge/autostash"},
	{marker: "rebase-apply/applying", name: "git am", quit: []string{"am", "--quit"}},
	{marker: "rebase-apply", name: "rebase", quit: []string{"rebase", "--quit"}, autostash: "rebase-apply/autostash"},
}

// ForgetOperations ends every operation left in progress in the worktree
// at dir (see above) and returns what it did, one sentence each, for the
// attempt's log; nothing when there was nothing, which costs no git
// command. An autostash that cannot be written back as it was is kept on
// the branch keep-<its short hash> (a name of its own, so no other keep
// overwrites it), and the log line or the error names it.
func (r *Repo) ForgetOperations(ctx context.Context, dir, keep string) ([]string, error) {
	gitDir, err := worktreeGitDir(r.path(dir))
	if err != nil {
		return nil, err
	}
	var done []string
	for _, op := range operations {
		if _, err := os.Lstat(filepath.Join(gitDir, op.marker)); err != nil {
			continue
		}
		if op.quit != nil {
			done = append(done, "the agent left a "+op.name+" in progress; it is ended as `--quit` ends it, its changes kept as they are")
		}
		note, err := r.forget(ctx, dir, gitDir, op, keep)
		if note != "" {
			done = append(done, note)
		}
		if err != nil {
			return done, fmt.Errorf("ending the %s left in progress: %w", op.name, err)
		}
	}
	return done, nil
}

// forget ends op in the worktree at dir, whose git dir is gitDir, and
// says what became of its autostash ("" when it had none).
func (r *Repo) forget(ctx context.Context, dir, gitDir string, op operation, keep string) (string, error) {
	stash, err := takeFile(gitDir, op.autostash)
	if err != nil {
		return "", err
	}
	if op.quit != nil {
		if _, err := r.write(ctx, dir, runOpts{}, op.quit...); err != nil {
			return "", err
		}
	}
	if stash == "" {
		return "", nil
	}
	note, conflicted, err := r.applyStash(ctx, dir, stash)
	if err == nil && !conflicted {
		return note, nil
	}
	// Whatever git could not put back as it was is kept where nothing
	// collects it: a branch no clean-up of a run deletes.
	keep = keep + "-" + stash[:min(len(stash), 12)]
	if _, kerr := r.write(ctx, dir, runOpts{}, "update-ref", "-m", "autobuild: the agent's autostash", "refs/heads/"+keep, stash); kerr != nil {
		return "", fmt.Errorf("the agent's autostashed work (commit %s) could not be written back (%v) nor kept on branch %s: %w", stash, err, keep, kerr)
	}
	if err != nil {
		// What is in conflict is staged as it is, so the retry's agent,
		// in this worktree, is not stopped by an index it cannot commit.
		_, _ = r.StageConflicted(ctx, dir)
		return "", fmt.Errorf("the agent's autostashed work could not be written back into its files (%v); it is kept on branch %s (`git stash apply %s` applies it)", err, keep, keep)
	}
	return note + "; the autostash as it was is kept on branch " + keep, nil
}

// applyStash writes the change stash commit holds (its tree against its
// first parent) into the worktree at dir, as git would when the operation
// ended, and says how. Not `git stash apply`: it refuses while the
// operation left files in conflict. A change the files already hold (the
// agent applied it itself) is left; one that does not apply as it is is
// merged (`git apply --3way`), files in conflict staged first as they are
// (as a commit takes them). Where that merge conflicts, the files keep
// both sides in conflict markers, staged so for the gates to judge
// (conflicted); a file git cannot mark so (a binary one) is an error.
func (r *Repo) applyStash(ctx context.Context, dir, stash string) (note string, conflicted bool, err error) {
	patch, err := r.read(ctx, dir, "diff", "--binary", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", stash+"^1", stash, "--")
	if err != nil || patch == "" {
		return "", false, err
	}
	apply := func(args ...string) error {
		_, err := r.write(ctx, dir, runOpts{stdin: strings.NewReader(patch)}, append(append([]string{"apply", "--whitespace=nowarn"}, args...), "-")...)
		return err
	}
	if apply("--reverse", "--check") == nil {
		return "the agent's autostashed work was already back in its files", false, nil
	}
	if apply() == nil {
		return "the agent's autostashed work is written back into its files", false, nil
	}
	if _, err := r.StageConflicted(ctx, dir); err != nil {
		return "", false, err
	}
	err = apply("--3way")
	paths, serr := r.conflictedPaths(ctx, dir)
	if serr != nil {
		return "", false, serr
	}
	if len(paths) == 0 {
		if err != nil {
			return "", false, err
		}
		return "the agent's autostashed work is merged back into its files", false, nil
	}
	for _, p := range paths {
		b, rerr := os.ReadFile(filepath.Join(r.path(dir), p))
		if rerr != nil || !bytes.Contains(b, []byte("<<<<<<< ")) {
			return "", false, fmt.Errorf("git could not merge the autostashed %s with what the operation left", p)
		}
	}
	if err := r.addPaths(ctx, dir, paths); err != nil {
		return "", false, err
	}
	return "the agent's autostashed work is merged back into its files; " + strings.Join(paths, ", ") + " kept both sides in conflict markers, staged so for the gates to judge", true, nil
}

// takeFile returns the trimmed content of the file name under gitDir and
// removes the file; "" when name is "" or there is no such file.
func takeFile(gitDir, name string) (string, error) {
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
	if err := os.Remove(path); err != nil {
		return "", fmt.Errorf("removing %s: %w", path, err)
	}
	return strings.TrimSpace(string(b)), nil
}

// StageConflicted stages, as they are in the worktree at dir, the paths
// the index holds in conflict (conflict markers and all), and returns
// them. A commit would take them so (git add -A); a reset that folds the
// agent's commits refuses to run while they are in conflict.
func (r *Repo) StageConflicted(ctx context.Context, dir string) ([]string, error) {
	paths, err := r.conflictedPaths(ctx, dir)
	if err != nil {
		return nil, err
	}
	if err := r.addPaths(ctx, dir, paths); err != nil {
		return nil, err
	}
	return paths, nil
}

// conflictedPaths returns the paths the index of the worktree at dir holds
// in conflict.
func (r *Repo) conflictedPaths(ctx context.Context, dir string) ([]string, error) {
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
	return paths, nil
}

// worktreeGitDir returns the git dir of the worktree at p: the directory
// its .git file names, read as git reads it (the exact "gitdir: " prefix,
// only line ends trimmed: git keeps a path's other spaces), or its .git
// directory.
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
	dir, ok := strings.CutPrefix(strings.TrimRight(string(b), "\r\n"), "gitdir: ")
	if !ok || dir == "" {
		return "", fmt.Errorf("%s is not a gitdir link as git writes one", dotGit)
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(p, dir) // worktree.useRelativePaths (git 2.48+)
	}
	return filepath.Clean(dir), nil
}

// CheckOwnWorktree checks that the worktree at dir is still linked to this
// repository as git made it: its .git file names a directory of this
// repository's worktrees, whose gitdir file names this .git file back, and
// git itself, asked in the worktree, finds that git dir and this
// repository's common one. An agent that removed its .git file, ran git
// init, or pointed the file (or its git dir's commondir) at your
// repository or at another worktree fails it: git there would act on what
// is not the phase's (a reset would move your branch).
func (r *Repo) CheckOwnWorktree(ctx context.Context, dir string) error {
	p := r.path(dir)
	gitDir, err := r.ownGitDir(p)
	if err != nil {
		return err
	}
	back, err := os.ReadFile(filepath.Join(gitDir, "gitdir"))
	if err != nil {
		return fmt.Errorf("%s names %s, which is no worktree's: %w", filepath.Join(p, ".git"), gitDir, err)
	}
	named := strings.TrimRight(string(back), "\r\n")
	if !filepath.IsAbs(named) {
		named = filepath.Join(gitDir, named) // worktree.useRelativePaths (git 2.48+)
	}
	if realPath(named) != realPath(filepath.Join(p, ".git")) {
		return fmt.Errorf("%s names the git dir of another worktree (%s)", filepath.Join(p, ".git"), named)
	}
	// What git finds is what the commands after this act on; a parse of
	// the files, however careful, is only what autobuild thinks git does.
	out, err := r.read(ctx, p, "rev-parse", "--path-format=absolute", "--absolute-git-dir", "--git-common-dir")
	if err != nil {
		return fmt.Errorf("asking git which repository %s belongs to: %w", p, err)
	}
	found := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(found) != 2 || realPath(found[0]) != realPath(gitDir) || realPath(found[1]) != realPath(r.commonDir) {
		return fmt.Errorf("git in %s finds the git dir %q, not this worktree's own (%s in this repository's %s)", p, out, gitDir, r.commonDir)
	}
	return nil
}

// AttachHead puts HEAD of the worktree at dir back on its branch (HEAD
// naming refs/heads/<branch>) when the agent left it elsewhere: on another
// branch (a checkout or a rebase of one of yours; the reset that folds the
// agent's commits, and the phase's commit, would move that branch) or
// detached. The index and the files stay as the agent left them. A branch
// the agent deleted is made again at base. It returns what it did, for the
// attempt's log: "" when HEAD was on its branch and the branch is there (a
// loose ref: no git command).
func (r *Repo) AttachHead(ctx context.Context, dir, branch, base string) (string, error) {
	gitDir, err := worktreeGitDir(r.path(dir))
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return "", fmt.Errorf("reading the worktree's HEAD: %w", err)
	}
	ref := "refs/heads/" + branch
	was := strings.TrimRight(string(b), "\r\n")
	if was == "ref: "+ref {
		// On its branch; the branch is there unless the agent deleted it
		// (update-ref -d: branch -D refuses the current branch). A loose
		// ref file that holds a hash says so without a git command; a
		// directory, an empty file or a packed ref goes to git.
		if fi, err := os.Stat(filepath.Join(r.commonDir, filepath.FromSlash(ref))); err == nil && fi.Mode().IsRegular() && fi.Size() >= 40 {
			return "", nil
		}
		made, err := r.ensureBranch(ctx, dir, ref, base)
		if err != nil || !made {
			return "", err
		}
		return "the agent deleted the phase's branch, which HEAD names; it is made again at the base, the files as the agent left them", nil
	}
	if _, err := r.write(ctx, dir, runOpts{}, "symbolic-ref", "HEAD", ref); err != nil {
		return "", err
	}
	if _, err := r.ensureBranch(ctx, dir, ref, base); err != nil {
		return "", err
	}
	if s, ok := strings.CutPrefix(was, "ref: "); ok {
		was = s
	}
	return fmt.Sprintf("the agent left HEAD on %q; it is put back on the phase's branch, the files as the agent left them", was), nil
}

// ensureBranch makes ref at base when it does not exist, and says whether
// it did.
func (r *Repo) ensureBranch(ctx context.Context, dir, ref, base string) (bool, error) {
	if _, err := r.read(ctx, dir, "rev-parse", "-q", "--verify", ref+"^{commit}"); err == nil {
		return false, nil
	}
	if _, err := r.write(ctx, dir, runOpts{}, "update-ref", ref, base, ""); err != nil {
		return false, err
	}
	return true, nil
}
