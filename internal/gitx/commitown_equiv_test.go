package gitx

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/gittest"
)

// The commit from known paths (the status after the agent, no tree to
// check against: a phase without gates) against what git add -A stages in
// a copy of the same repository. Found by a review of the change, each of
// these reproduces a case the two could differ on.

// addAllTree is what `git add -A` + `git write-tree` gives in a full copy of
// the repository (ground truth for the old commit path).
func addAllTree(t *testing.T, root string) string {
	t.Helper()
	cp := filepath.Join(t.TempDir(), "copy")
	out, err := exec.Command("cp", "-a", root, cp).CombinedOutput()
	require.NoError(t, err, string(out))
	gitT(t, cp, "add", "-A")
	return gitT(t, cp, "write-tree")
}

// commitKnown commits as the engine does without gates: the paths the
// status after the agent listed, no tree to check against.
func commitKnown(t *testing.T, r *Repo, root string) (Made, Changes) {
	t.Helper()
	ctx := context.Background()
	_, files, err := HeadAndStatusFiles(ctx, root)
	require.NoError(t, err)
	made, ch, err := r.CommitOwn(ctx, "", Known{Files: files, Exact: true}, func(Changes) string { return "m" })
	require.NoError(t, err)
	return made, ch
}

// requireCommitsAsAddAll commits root's change as commitKnown does and
// requires the tree git add -A would have made of it.
func requireCommitsAsAddAll(t *testing.T, r *Repo, root string) {
	t.Helper()
	want := addAllTree(t, root)
	commitKnown(t, r, root)
	require.Equal(t, want, headTree(t, root), "CommitOwn from known paths differs from git add -A")
}

func headTree(t *testing.T, root string) string {
	t.Helper()
	return gitT(t, root, "rev-parse", "HEAD^{tree}")
}

func addSubmodule(t *testing.T, root string) {
	t.Helper()
	origin := gittest.New(t, gittest.At(filepath.Join(t.TempDir(), "origin")), gittest.Message("one"))
	gitT(t, origin, "commit", "-q", "--allow-empty", "-m", "two")
	gitT(t, root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", origin, "sub")
	gitT(t, root, "commit", "-qm", "sub")
}

func TestCommitOwnTakesASubmoduleMoveStatusWouldHide(t *testing.T) {
	t.Parallel()
	for name, set := range map[string]func(root string){
		".gitmodules ignore=all": func(root string) {
			gitT(t, root, "config", "-f", ".gitmodules", "submodule.sub.ignore", "all")
			gitT(t, root, "commit", "-qam", "ignore all")
		},
		"config submodule.sub.ignore=all": func(root string) {
			gitT(t, root, "config", "submodule.sub.ignore", "all")
		},
		"config diff.ignoreSubmodules=all": func(root string) {
			gitT(t, root, "config", "diff.ignoreSubmodules", "all")
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r, root := newRepo(t)
			addSubmodule(t, root)
			set(root)
			// The agent moves the submodule back one commit.
			gitT(t, filepath.Join(root, "sub"), "checkout", "-q", "HEAD~1")
			writeFile(t, root, "x.txt", "x\n")
			requireCommitsAsAddAll(t, r, root)
		})
	}
}

func TestCommitOwnMatchesAddAllOnTrackedIgnoredFiles(t *testing.T) {
	t.Parallel()
	r, root := newRepo(t)
	commitFiles(t, root, "gen", "gen/a.out", "a\n", "gen/b.out", "b\n", "gen/c.out", "c\n")
	writeFile(t, root, ".gitignore", "gen/\n*.out\n")
	gitT(t, root, "add", ".gitignore")
	gitT(t, root, "commit", "-qm", "ignore")
	writeFile(t, root, "gen/a.out", "a changed\n")
	require.NoError(t, os.Remove(filepath.Join(root, "gen/b.out")))
	gitT(t, root, "rm", "-q", "--cached", "gen/c.out") // stays on disk, ignored
	writeFile(t, root, "gen/new.out", "ignored new\n")
	requireCommitsAsAddAll(t, r, root)
}

func TestCommitOwnMatchesAddAllWhenFilesBecomeDirectories(t *testing.T) {
	t.Parallel()
	r, root := newRepo(t)
	commitFiles(t, root, "shapes", "d/a", "a\n", "d/b/c", "c\n", "file", "f\n", "linkme/x", "x\n", "other/y", "y\n")
	// dir -> file
	require.NoError(t, os.RemoveAll(filepath.Join(root, "d")))
	writeFile(t, root, "d", "now a file\n")
	// file -> dir
	require.NoError(t, os.Remove(filepath.Join(root, "file")))
	writeFile(t, root, "file/inner", "inner\n")
	// dir -> symlink to a dir
	require.NoError(t, os.RemoveAll(filepath.Join(root, "linkme")))
	require.NoError(t, os.Symlink("other", filepath.Join(root, "linkme")))
	requireCommitsAsAddAll(t, r, root)
	require.Empty(t, gitT(t, root, "status", "--porcelain"))
}

func TestCommitOwnMatchesAddAllOnAwkwardNames(t *testing.T) {
	t.Parallel()
	r, root := newRepo(t)
	names := []string{"-rf", "--all", "a b.txt", "new\nline.txt", "tab\there", "*", "[ab].txt", "?", "back\\slash",
		":!exclude", ":(top)x", "quote\"d", "trail ", " lead", "dir with space/f", "\xff\xfe.bin", "é.txt", "-/x"}
	for _, n := range names {
		writeFile(t, root, n, n+"\n")
	}
	gitT(t, root, "add", "-A")
	gitT(t, root, "commit", "-qm", "weird")
	for i, n := range names {
		switch i % 3 {
		case 0:
			writeFile(t, root, n, n+" changed\n")
		case 1:
			require.NoError(t, os.Remove(filepath.Join(root, n)))
		case 2:
			require.NoError(t, os.Chmod(filepath.Join(root, n), 0o755))
		}
		writeFile(t, root, "new/"+n, "new\n")
	}
	requireCommitsAsAddAll(t, r, root)
	require.Empty(t, gitT(t, root, "status", "--porcelain"))
}

func TestCommitOwnMatchesAddAllOnWhatTheIndexHolds(t *testing.T) {
	t.Parallel()
	r, root := newRepo(t)
	commitFiles(t, root, "t", "t1", "1\n", "t2", "2\n", "t3", "3\n", "skip", "s\n", "assume", "a\n")
	writeFile(t, root, "staged-then-changed", "v1\n")
	gitT(t, root, "add", "staged-then-changed")
	writeFile(t, root, "staged-then-changed", "v2\n")
	writeFile(t, root, "added-then-deleted", "x\n")
	gitT(t, root, "add", "added-then-deleted")
	require.NoError(t, os.Remove(filepath.Join(root, "added-then-deleted")))
	writeFile(t, root, "t1", "1 staged\n")
	gitT(t, root, "add", "t1")
	writeFile(t, root, "t1", "1\n") // back to HEAD in the worktree, staged differs
	gitT(t, root, "rm", "-q", "--cached", "t2")
	writeFile(t, root, "ita", "ita\n")
	gitT(t, root, "add", "-N", "ita")
	gitT(t, root, "update-index", "--chmod=+x", "t3")
	gitT(t, root, "update-index", "--skip-worktree", "skip")
	writeFile(t, root, "skip", "s changed\n")
	gitT(t, root, "update-index", "--assume-unchanged", "assume")
	writeFile(t, root, "assume", "a changed\n")
	requireCommitsAsAddAll(t, r, root)
}

// Agent commits, folded back by reset --soft, plus later changes.
func TestCommitOwnMatchesAddAllAfterFoldedCommits(t *testing.T) {
	t.Parallel()
	r, root := newRepo(t)
	base := gitT(t, root, "rev-parse", "HEAD")
	commitFiles(t, root, "agent 1", "c1", "1\n")
	gitT(t, root, "rm", "-q", "README.md")
	gitT(t, root, "commit", "-qm", "agent 2")
	writeFile(t, root, "c1", "1 later\n")
	writeFile(t, root, "README.md", "back\n")
	writeFile(t, root, "u", "u\n")
	gitT(t, root, "reset", "-q", "--soft", base)
	requireCommitsAsAddAll(t, r, root)
	require.Equal(t, base, gitT(t, root, "rev-parse", "HEAD^"))
}

// A conflict the agent left (unmerged entries).
func TestCommitOwnMatchesAddAllOnUnmergedEntries(t *testing.T) {
	t.Parallel()
	r, root := newRepo(t)
	gitT(t, root, "checkout", "-q", "-b", "other")
	writeFile(t, root, "f.txt", "other\n")
	gitT(t, root, "commit", "-qam", "other")
	gitT(t, root, "checkout", "-q", "main")
	writeFile(t, root, "f.txt", "mine\n")
	gitT(t, root, "commit", "-qam", "mine")
	cmd := exec.Command("git", "merge", "-q", "other")
	cmd.Dir = root
	_ = cmd.Run() // conflicts
	gitT(t, root, "merge", "--abort")
	// A stash pop conflict leaves unmerged entries without MERGE_HEAD.
	writeFile(t, root, "f.txt", "stashed\n")
	gitT(t, root, "stash", "-q")
	writeFile(t, root, "f.txt", "conflicting\n")
	gitT(t, root, "commit", "-qam", "c")
	cmd = exec.Command("git", "stash", "pop", "-q")
	cmd.Dir = root
	_ = cmd.Run()
	requireCommitsAsAddAll(t, r, root)
}
