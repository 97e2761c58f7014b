package gitx

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// git keeps the trailing spaces of a .git file's path (it trims only line
// ends): a .git file naming "<its git dir> ", a link to your repository's
// git dir, must not pass for the worktree's own.
func TestCheckOwnWorktreeReadsTheLinkAsGitDoes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)
	base := gitT(t, root, "rev-parse", "HEAD")
	commitFiles(t, root, "user", "u.txt", "user\n")
	userTip := gitT(t, root, "rev-parse", "main")
	one := filepath.Join(t.TempDir(), "one")
	require.NoError(t, r.AddWorktree(ctx, one, "one", base))
	oneGitDir := strings.TrimSpace(strings.TrimPrefix(readFile(t, one, ".git"), "gitdir:"))
	// What an agent can do from its worktree:
	require.NoError(t, os.Symlink(filepath.Join(root, ".git"), oneGitDir+" "))
	writeFile(t, one, ".git", "gitdir: "+oneGitDir+" \n")

	require.Equal(t, filepath.Join(root, ".git"), gitT(t, one, "rev-parse", "--absolute-git-dir"), "git follows the link")
	require.Error(t, r.CheckOwnWorktree(ctx, one))
	_, err := tidyAsTheEngineDoes(t, r, one, base)
	require.Error(t, err)
	require.Equal(t, userTip, gitT(t, root, "rev-parse", "main"), "your branch main is yours")

	// The same with the git dir's commondir pointed at another repository.
	writeFile(t, one, ".git", "gitdir: "+oneGitDir+"\n")
	require.NoError(t, r.CheckOwnWorktree(ctx, one))
	_, other := newRepo(t)
	writeFile(t, oneGitDir, "commondir", filepath.Join(other, ".git")+"\n")
	require.Error(t, r.CheckOwnWorktree(ctx, one))
}

// tidyAsTheEngineDoes is what the engine's tidyWorkspace does, then the
// phase's commit, in the worktree wt on the branch "phase".
func tidyAsTheEngineDoes(t *testing.T, r *Repo, wt, base string) (Made, error) {
	ctx := context.Background()
	if err := r.CheckOwnWorktree(ctx, wt); err != nil {
		return Made{}, err
	}
	if _, err := r.ForgetOperations(ctx, wt, "phase-autostash"); err != nil {
		return Made{}, err
	}
	if _, err := r.AttachHead(ctx, wt, "phase", base); err != nil {
		return Made{}, err
	}
	head, files, err := HeadAndStatusFiles(ctx, wt)
	if err != nil {
		return Made{}, err
	}
	if head != base {
		if _, err := r.StageConflicted(ctx, wt); err != nil {
			return Made{}, err
		}
		if err := r.ResetSoft(ctx, wt, base); err != nil {
			return Made{}, err
		}
		if files, err = StatusFiles(ctx, wt); err != nil {
			return Made{}, err
		}
	}
	made, _, err := r.CommitOwn(ctx, wt, Known{Files: files, Exact: true, Head: base}, func(Changes) string { return "phase" })
	return made, err
}

// agentLeftSetup makes a repository whose branch "other" writes c.txt and
// line 10 of f.txt, and a worktree on "phase" at the first commit, where
// the agent committed its own c.txt.
func agentLeftSetup(t *testing.T) (*Repo, string, string, string) {
	r, root, base, wt := phaseWorktree(t)
	gitT(t, root, "checkout", "-q", "-b", "other")
	commitFiles(t, root, "o1", "c.txt", "other\n", "f.txt", numbered(20, map[int]string{10: "other 10"}))
	gitT(t, root, "checkout", "-q", "main")
	commitFiles(t, wt, "mine", "c.txt", "mine\n")
	return r, root, base, wt
}

// merge --autostash stopped at a conflict; the agent's uncommitted change
// is 2 lines from one the merge made cleanly: it does not apply as it is,
// but merges (as git's own apply of the autostash would).
func TestAnAutostashNearAMergedChangeIsMergedBack(t *testing.T) {
	t.Parallel()
	r, root, base, wt := agentLeftSetup(t)
	writeFile(t, wt, "f.txt", numbered(20, map[int]string{12: "agent 12"}))
	tryGit(wt, "merge", "--autostash", "--no-edit", "other")
	require.FileExists(t, filepath.Join(gitT(t, wt, "rev-parse", "--absolute-git-dir"), "MERGE_HEAD"))
	made, err := tidyAsTheEngineDoes(t, r, wt, base)
	require.NoError(t, err, "the agent's work is put back")
	require.Contains(t, gitT(t, root, "show", made.SHA+":f.txt"), "agent 12")
}

// merge --autostash stopped at a conflict in the very file the agent had
// changed: the work is merged back, conflict markers and all.
func TestAnAutostashOnTheConflictedFileIsMergedBack(t *testing.T) {
	t.Parallel()
	r, root, base, wt := agentLeftSetup(t)
	writeFile(t, wt, "c.txt", "mine, more\n")
	tryGit(wt, "merge", "--autostash", "--no-edit", "other")
	made, err := tidyAsTheEngineDoes(t, r, wt, base)
	require.NoError(t, err, "the agent's work is put back")
	require.Empty(t, gitT(t, root, "stash", "list"))
	require.Contains(t, gitT(t, root, "show", made.SHA+":c.txt"), "mine, more")
	require.Contains(t, gitT(t, root, "show", made.SHA+":c.txt"), "<<<<<<< ")
	kept := gitT(t, root, "for-each-ref", "--format=%(refname:short)", "refs/heads/phase-autostash-*")
	require.Equal(t, "mine, more", gitT(t, root, "show", kept+":c.txt"), "and kept as it was")
}

// merge --squash --autostash (no conflict, exit 0) leaves MERGE_AUTOSTASH
// without MERGE_HEAD, for git commit to apply: it is written back too.
func TestASquashMergesAutostashIsWrittenBack(t *testing.T) {
	t.Parallel()
	r, root, base, wt := agentLeftSetup(t)
	gitT(t, wt, "rm", "-q", "c.txt")
	gitT(t, wt, "commit", "-qm", "rm c")
	writeFile(t, wt, "dirty.txt", "agent's uncommitted work\n")
	gitT(t, wt, "add", "dirty.txt")
	gitT(t, wt, "merge", "--squash", "--autostash", "other")
	made, err := tidyAsTheEngineDoes(t, r, wt, base)
	require.NoError(t, err)
	require.Contains(t, gitT(t, root, "ls-tree", "-r", "--name-only", made.SHA), "dirty.txt", "the agent's work is in the phase's commit")
}

// Odd names and a binary file in an autostash, odd names in conflict, under
// the three backends.
func TestAutostashAndConflictsWithOddNames(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"merge", "rebase", "rebase --apply"} {
		t.Run(backend, func(t *testing.T) {
			ctx := context.Background()
			r, root := newRepo(t)
			base := gitT(t, root, "rev-parse", "HEAD")
			odd := []string{"new\nline.txt", "tab\tx.txt", "*.go", ":(glob)x", "ü \"q\".txt", "-dash"}
			gitT(t, root, "checkout", "-q", "-b", "other")
			for _, n := range odd {
				writeFile(t, root, n, "other\n")
			}
			commitFiles(t, root, "o1")
			gitT(t, root, "checkout", "-q", "main")
			wt := filepath.Join(t.TempDir(), "wt")
			require.NoError(t, r.AddWorktree(ctx, wt, "phase", base))
			for _, n := range odd {
				writeFile(t, wt, n, "mine\n")
			}
			commitFiles(t, wt, "mine")
			bin := []byte{0, 1, 2, 3, 255, 0, 10, 13}
			require.NoError(t, os.WriteFile(filepath.Join(wt, "bin\n.dat"), bin, 0o644))
			writeFile(t, wt, "é\tdirty.txt", "dirty\n")
			gitT(t, wt, "add", "-A", "--", "bin\n.dat", "é\tdirty.txt")
			writeFile(t, wt, "README.md", "agent readme\n") // unstaged
			switch backend {
			case "merge":
				tryGit(wt, "merge", "--autostash", "--no-edit", "other")
			case "rebase":
				tryGit(wt, "-c", "rebase.autoStash=true", "rebase", "other")
			default:
				tryGit(wt, "-c", "rebase.autoStash=true", "rebase", "--apply", "other")
			}
			made, err := tidyAsTheEngineDoes(t, r, wt, base)
			require.NoError(t, err)
			require.Empty(t, gitT(t, root, "stash", "list"))
			files := gitT(t, root, "-c", "core.quotepath=off", "ls-tree", "-r", "-z", "--name-only", made.SHA)
			for _, n := range append(odd, "bin\n.dat", "é\tdirty.txt") {
				require.Contains(t, files, n+"\x00")
			}
			b := gitT(t, root, "cat-file", "blob", made.SHA+":bin\n.dat")
			require.Equal(t, strings.TrimSpace(string(bin)), b)
			require.Equal(t, "agent readme", gitT(t, root, "show", made.SHA+":README.md"))
		})
	}
}

// The agent, stopped at an edit of rebase -i with an autostash, applied
// the autostash itself: its work is already in its files.
func TestAnAutostashTheAgentAppliedIsLeft(t *testing.T) {
	t.Parallel()
	r, root, base, wt := agentLeftSetup(t)
	commitFiles(t, wt, "mine2", "m2.txt", "m2\n")
	writeFile(t, wt, "dirty.txt", "agent's uncommitted work\n")
	gitT(t, wt, "add", "dirty.txt")
	gitT(t, wt, "-c", "rebase.autoStash=true", "-c", "sequence.editor=sed -i 1s/^pick/edit/", "rebase", "-i", base)
	gd := gitT(t, wt, "rev-parse", "--absolute-git-dir")
	stash := strings.TrimSpace(readFile(t, gd, "rebase-merge/autostash"))
	gitT(t, wt, "stash", "apply", stash)
	made, err := tidyAsTheEngineDoes(t, r, wt, base)
	require.NoError(t, err)
	require.Equal(t, "agent's uncommitted work", gitT(t, root, "show", made.SHA+":dirty.txt"))
}

// A worktree made through a symlinked path is its own, by either path, and
// so is one whose .git file ends in CRLF.
func TestCheckOwnWorktreeThroughASymlinkAndCRLF(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)
	base := gitT(t, root, "rev-parse", "HEAD")
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	require.NoError(t, os.Symlink(real, link))
	wt := filepath.Join(link, "wt")
	require.NoError(t, r.AddWorktree(ctx, wt, "phase", base))
	require.NoError(t, r.CheckOwnWorktree(ctx, wt))
	require.NoError(t, r.CheckOwnWorktree(ctx, filepath.Join(real, "wt")))
	dotGit := readFile(t, wt, ".git")
	writeFile(t, wt, ".git", strings.TrimSpace(dotGit)+"\r\n")
	require.NoError(t, r.CheckOwnWorktree(ctx, wt))
	gitT(t, wt, "status")
}

// An autostash that neither applies nor merges (a binary file both the
// merge and the agent changed) is kept on the branch named for it, the
// error says where, and your stash list is left alone.
func TestAnAutostashThatCannotBeMergedIsKeptOnABranch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)
	base := gitT(t, root, "rev-parse", "HEAD")
	gitT(t, root, "checkout", "-q", "-b", "other")
	writeFile(t, root, "b.bin", "\x00other\x00")
	commitFiles(t, root, "o1", "c.txt", "other\n")
	gitT(t, root, "checkout", "-q", "main")
	wt := filepath.Join(t.TempDir(), "wt")
	require.NoError(t, r.AddWorktree(ctx, wt, "phase", base))
	commitFiles(t, wt, "mine", "c.txt", "mine\n")
	writeFile(t, wt, "b.bin", "\x00agent\x00")
	gitT(t, wt, "add", "b.bin")
	tryGit(wt, "merge", "--autostash", "--no-edit", "other")
	gd := gitT(t, wt, "rev-parse", "--absolute-git-dir")
	stash := strings.TrimSpace(readFile(t, gd, "MERGE_AUTOSTASH"))

	_, err := r.ForgetOperations(ctx, wt, "phase-autostash")
	kept := "phase-autostash-" + stash[:12]
	require.ErrorContains(t, err, "kept on branch "+kept)
	require.Equal(t, stash, gitT(t, root, "rev-parse", kept))
	require.Empty(t, gitT(t, root, "stash", "list"))
	require.Equal(t, "\x00agent\x00", gitT(t, root, "show", kept+":b.bin"))
	require.Empty(t, gitT(t, wt, "ls-files", "-u"), "nothing left in conflict for the retry's agent")
}

// HEAD on the phase's branch, which the agent deleted (update-ref -d: git
// branch -D refuses the current branch): the branch is made again at the
// base, and the phase's work is still read from the files.
func TestAttachHeadMakesADeletedBranchAgain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root, base, wt := phaseWorktree(t)
	writeFile(t, wt, "x.txt", "x\n")
	gitT(t, wt, "update-ref", "-d", "refs/heads/phase")
	note, err := r.AttachHead(ctx, wt, "phase", base)
	require.NoError(t, err)
	require.Contains(t, note, "deleted the phase's branch")
	require.Equal(t, base, gitT(t, root, "rev-parse", "phase"))
	made, err := tidyAsTheEngineDoes(t, r, wt, base)
	require.NoError(t, err)
	require.Equal(t, "x", gitT(t, root, "show", made.SHA+":x.txt"))

	// On its branch, the branch there: nothing to do, nothing said.
	note, err = r.AttachHead(ctx, wt, "phase", base)
	require.NoError(t, err)
	require.Empty(t, note)
}

// A ref path the agent emptied, or made a directory (a branch phase/x
// after deleting phase), is not taken for the branch: git says what is
// wrong with it, where the status after would have said "no commits yet".
func TestAttachHeadDoesNotTrustABrokenLooseRef(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root, base, wt := phaseWorktree(t)
	ref := filepath.Join(root, ".git", "refs", "heads", "phase")
	require.NoError(t, os.WriteFile(ref, nil, 0o644))
	_, err := r.AttachHead(ctx, wt, "phase", base)
	require.ErrorContains(t, err, "reference broken")

	require.NoError(t, os.WriteFile(ref, []byte(base+"\n"), 0o644))
	gitT(t, wt, "update-ref", "-d", "refs/heads/phase")
	gitT(t, wt, "update-ref", "refs/heads/phase/x", base)
	_, err = r.AttachHead(ctx, wt, "phase", base)
	require.ErrorContains(t, err, "refs/heads/phase")
}

// phaseWorktree makes a repository and a worktree of it on the branch
// "phase" at its first commit (base).
func phaseWorktree(t *testing.T) (r *Repo, root, base, wt string) {
	t.Helper()
	r, root = newRepo(t)
	base = gitT(t, root, "rev-parse", "HEAD")
	wt = filepath.Join(t.TempDir(), "wt")
	require.NoError(t, r.AddWorktree(context.Background(), wt, "phase", base))
	return r, root, base, wt
}
