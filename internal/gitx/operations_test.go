package gitx

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// An operation an agent left half way is forgotten, its changes kept; a
// later reset --soft (what folds an agent's commits) then works.
func TestForgetOperationsEndsWhatTheAgentLeftInProgress(t *testing.T) {
	t.Parallel()
	for name, leave := range map[string]func(t *testing.T, root string){
		"merge": func(t *testing.T, root string) {
			cmd := exec.Command("git", "merge", "-q", "--no-commit", "--no-ff", "other")
			cmd.Dir = root
			require.Error(t, cmd.Run(), "both sides wrote c.txt")
		},
		"cherry-pick with a conflict": func(t *testing.T, root string) {
			cmd := exec.Command("git", "cherry-pick", "other")
			cmd.Dir = root
			require.Error(t, cmd.Run(), "both sides wrote c.txt")
		},
		"revert": func(t *testing.T, root string) {
			gitT(t, root, "revert", "--no-commit", "HEAD")
		},
		"rebase": func(t *testing.T, root string) {
			cmd := exec.Command("git", "rebase", "-q", "--exec", "false", "other")
			cmd.Dir = root
			_ = cmd.Run() // stops at the failing exec
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r, root := newRepo(t)
			base := gitT(t, root, "rev-parse", "HEAD")
			gitT(t, root, "checkout", "-q", "-b", "other")
			commitFiles(t, root, "other", "c.txt", "other\n")
			gitT(t, root, "checkout", "-q", "main")
			commitFiles(t, root, "mine", "c.txt", "mine\n")
			leave(t, root)
			gitT(t, root, "add", "-A") // the agent resolved what conflicted, and stopped
			status := gitT(t, root, "status", "--porcelain")

			forgotten, err := r.ForgetOperations(context.Background(), "", "keep")
			require.NoError(t, err)
			require.NotEmpty(t, forgotten)
			for _, marker := range []string{"MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "sequencer", "rebase-merge", "rebase-apply"} {
				require.NoFileExists(t, filepath.Join(root, ".git", marker))
			}
			require.Equal(t, status, gitT(t, root, "status", "--porcelain"), "the changes are kept")
			gitT(t, root, "reset", "-q", "--soft", base)

			again, err := r.ForgetOperations(context.Background(), "", "keep")
			require.NoError(t, err)
			require.Empty(t, again)
		})
	}
}

// What an agent leaves in its own worktree (a linked one, as a phase's
// is) after committing against the rules: an operation stopped at a
// conflict, perhaps with its uncommitted work autostashed. Ending it,
// staging what is in conflict and folding the commits, as the engine
// does, gives a phase commit on the phase's branch that holds the work,
// and your stash list is left alone.
func TestAnOperationLeftAtAConflictStillFoldsAndCommits(t *testing.T) {
	t.Parallel()
	for name, leave := range map[string]func(t *testing.T, wt string){
		"merge":          func(t *testing.T, wt string) { tryGit(wt, "merge", "--no-edit", "other") },
		"cherry-pick x2": func(t *testing.T, wt string) { tryGit(wt, "cherry-pick", "other~1", "other") },
		"rebase":         func(t *testing.T, wt string) { tryGit(wt, "rebase", "other") },
		"rebase --apply": func(t *testing.T, wt string) { tryGit(wt, "rebase", "--apply", "other") },
		"am": func(t *testing.T, wt string) {
			p := t.TempDir()
			tryGit(wt, "format-patch", "-q", "-1", "other~1", "-o", p)
			m, _ := filepath.Glob(filepath.Join(p, "*.patch"))
			tryGit(wt, append([]string{"am"}, m...)...)
		},
		"merge --autostash": func(t *testing.T, wt string) {
			writeFile(t, wt, "dirty.txt", "agent's uncommitted work\n")
			gitT(t, wt, "add", "dirty.txt")
			tryGit(wt, "merge", "--autostash", "--no-edit", "other")
		},
		"rebase with rebase.autoStash": func(t *testing.T, wt string) {
			writeFile(t, wt, "dirty.txt", "agent's uncommitted work\n")
			gitT(t, wt, "add", "dirty.txt")
			tryGit(wt, "-c", "rebase.autoStash=true", "rebase", "other")
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			r, root, base, wt := phaseWorktree(t)
			gitT(t, root, "checkout", "-q", "-b", "other")
			commitFiles(t, root, "o1", "c.txt", "other\n")
			commitFiles(t, root, "o2", "o2.txt", "o2\n")
			gitT(t, root, "checkout", "-q", "main")
			commitFiles(t, wt, "mine", "c.txt", "mine\n")
			leave(t, wt)

			forgotten, err := r.ForgetOperations(ctx, wt, "keep")
			require.NoError(t, err)
			require.NotEmpty(t, forgotten)
			_, err = r.AttachHead(ctx, wt, "phase", base)
			require.NoError(t, err)
			require.Equal(t, "refs/heads/phase", gitT(t, wt, "symbolic-ref", "HEAD"), "HEAD is on the phase's branch")
			if strings.Contains(name, "autostash") || strings.Contains(name, "autoStash") {
				require.Equal(t, "agent's uncommitted work\n", readFile(t, wt, "dirty.txt"))
			}
			head, _, err := HeadAndStatusFiles(ctx, wt)
			require.NoError(t, err)
			require.NotEqual(t, base, head, "the agent committed")
			_, err = r.StageConflicted(ctx, wt)
			require.NoError(t, err)
			require.NoError(t, r.ResetSoft(ctx, wt, base))
			_, files, err := HeadAndStatusFiles(ctx, wt)
			require.NoError(t, err)
			made, _, err := r.CommitOwn(ctx, wt, Known{Files: files, Exact: true, Head: base}, func(Changes) string { return "phase" })
			require.NoError(t, err)
			require.Equal(t, made.SHA, gitT(t, root, "rev-parse", "phase"), "the phase's commit is on its branch")
			require.Empty(t, gitT(t, root, "stash", "list"), "your stash list is left alone")
			require.Contains(t, gitT(t, root, "ls-tree", "-r", "--name-only", made.SHA), "c.txt")
			if strings.Contains(name, "utostash") || strings.Contains(name, "autoStash") {
				require.Equal(t, "agent's uncommitted work", gitT(t, root, "show", made.SHA+":dirty.txt"))
			}
		})
	}
}

// tryGit runs git in dir and ignores how it ends (an operation stopped at
// a conflict exits non-zero).
func tryGit(dir string, args ...string) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	_ = cmd.Run()
}

// A worktree whose .git file an agent pointed elsewhere is refused.
func TestCheckOwnWorktreeRefusesARelinkedWorktree(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)
	base := gitT(t, root, "rev-parse", "HEAD")
	one, two := filepath.Join(t.TempDir(), "one"), filepath.Join(t.TempDir(), "two")
	require.NoError(t, r.AddWorktree(ctx, one, "one", base))
	require.NoError(t, r.AddWorktree(ctx, two, "two", base))
	require.NoError(t, r.CheckOwnWorktree(ctx, one))

	// The links as git 2.48+ writes them with worktree.useRelativePaths.
	oneGitDir := strings.TrimSpace(strings.TrimPrefix(readFile(t, one, ".git"), "gitdir:"))
	relGitDir, err := filepath.Rel(one, oneGitDir)
	require.NoError(t, err)
	relBack, err := filepath.Rel(oneGitDir, filepath.Join(one, ".git"))
	require.NoError(t, err)
	writeFile(t, one, ".git", "gitdir: "+relGitDir+"\n")
	writeFile(t, oneGitDir, "gitdir", relBack+"\n")
	require.NoError(t, r.CheckOwnWorktree(ctx, one), "relative links")

	twoGitDir := strings.TrimSpace(strings.TrimPrefix(readFile(t, two, ".git"), "gitdir:"))
	for name, dotGit := range map[string]string{
		"your repository's git dir": "gitdir: " + filepath.Join(root, ".git") + "\n",
		"another worktree's":        "gitdir: " + twoGitDir + "\n",
	} {
		writeFile(t, one, ".git", dotGit)
		require.Error(t, r.CheckOwnWorktree(ctx, one), name)
	}
	require.NoError(t, os.Remove(filepath.Join(one, ".git")))
	require.Error(t, r.CheckOwnWorktree(ctx, one), "no .git file")
}
