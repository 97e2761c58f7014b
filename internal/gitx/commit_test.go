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

func TestCommitAll(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root, base := newRepoAtBase(t)
	wt := filepath.Join(root, ".autobuild", "worktrees", "phase-1")
	require.NoError(t, r.AddWorktree(ctx, wt, "autobuild/phase-1", base))

	sha, ch, err := r.CommitAll(ctx, wt, "nothing")
	require.NoError(t, err)
	require.Empty(t, sha)
	require.True(t, ch.Empty())

	writeFile(t, wt, "f.txt", numbered(20, map[int]string{3: "three"}))
	writeFile(t, wt, "internal/api/h.go", "package api\n")
	require.NoError(t, os.Remove(filepath.Join(wt, "README.md")))
	// An install hook that would fail proves hooks are skipped.
	hooks := filepath.Join(root, ".git", "hooks")
	writeFile(t, hooks, "pre-commit", "#!/bin/sh\nexit 1\n")
	require.NoError(t, os.Chmod(filepath.Join(hooks, "pre-commit"), 0o755))

	msg := ConventionalMessage(MessageInput{PhaseID: "1", DisplayID: "1", Name: "Backend API", Files: []string{"internal/api/h.go"}})
	sha, ch, err = r.CommitAll(ctx, wt, msg)
	require.NoError(t, err)
	require.Equal(t, Changes{Created: []string{"internal/api/h.go"}, Modified: []string{"f.txt"}, Deleted: []string{"README.md"}}, ch)
	head, err := r.Head(ctx, wt)
	require.NoError(t, err)
	require.Equal(t, head, sha)
	require.Equal(t, msg, gitT(t, wt, "log", "-1", "--format=%B")+"\n")
	require.Equal(t, "autobuild/phase-1", gitT(t, wt, "rev-parse", "--abbrev-ref", "HEAD"))
	files, err := StatusFiles(ctx, wt)
	require.NoError(t, err)
	require.Empty(t, files)

	between, err := ChangesBetween(ctx, root, base, sha)
	require.NoError(t, err)
	require.Equal(t, ch, between)

	// A rename is a deletion and a creation.
	gitT(t, wt, "mv", "f.txt", "g.txt")
	_, ch, err = r.CommitAll(ctx, wt, "rename")
	require.NoError(t, err)
	require.Equal(t, Changes{Created: []string{"g.txt"}, Deleted: []string{"f.txt"}}, ch)
}

func TestDiffWorkingTree(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, root := newRepo(t)
	writeFile(t, root, "f.txt", numbered(20, map[int]string{7: "seven"}))
	writeFile(t, root, "new/untracked.txt", "brand new\n")
	writeFile(t, root, "staged.txt", "staged\n")
	gitT(t, root, "add", "staged.txt")
	before := gitT(t, root, "status", "--porcelain")

	diff, err := DiffWorkingTree(ctx, root, "")
	require.NoError(t, err)
	require.Contains(t, diff, "diff --git a/f.txt b/f.txt")
	require.Contains(t, diff, "-line 7\n+seven\n")
	require.Contains(t, diff, "+++ b/new/untracked.txt\n@@ -0,0 +1 @@\n+brand new\n")
	require.Contains(t, diff, "+++ b/staged.txt")
	require.Equal(t, before, gitT(t, root, "status", "--porcelain"), "the real index is untouched")

	gitT(t, root, "reset", "-q", "--hard")
	gitT(t, root, "clean", "-qfd")
	diff, err = DiffWorkingTree(ctx, root, "")
	require.NoError(t, err)
	require.Empty(t, diff)
}

// Against the commit a phase started from, the diff holds the attempt's work
// even after it was committed (a phase whose commit then conflicted).
func TestDiffWorkingTreeFromABase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root, base := newRepoAtBase(t)
	writeFile(t, root, "f.txt", numbered(20, map[int]string{4: "four"}))
	_, _, err := r.CommitAll(ctx, "", "phase work")
	require.NoError(t, err)
	writeFile(t, root, "later.txt", "uncommitted\n")

	diff, err := DiffWorkingTree(ctx, root, "")
	require.NoError(t, err)
	require.NotContains(t, diff, "+four", "against HEAD the committed work is not there")
	diff, err = DiffWorkingTree(ctx, root, base)
	require.NoError(t, err)
	require.Contains(t, diff, "-line 4\n+four\n")
	require.Contains(t, diff, "+uncommitted\n")
}

func TestPatchAppliesToTheIndex(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root, base := newRepoAtBase(t)
	writeFile(t, root, "f.txt", numbered(20, map[int]string{2: "two"}))
	writeFile(t, root, "bin.dat", "\x00\x01\x02binary\x00")
	first, _, err := r.CommitAll(ctx, "", "first")
	require.NoError(t, err)
	writeFile(t, root, "f.txt", numbered(20, map[int]string{2: "two", 18: "eighteen"}))
	_, _, err = r.CommitAll(ctx, "", "second")
	require.NoError(t, err)

	patch, err := Patch(ctx, root, base, first, []string{"f.txt", "bin.dat"})
	require.NoError(t, err)
	require.Contains(t, patch, "GIT binary patch")
	require.NotContains(t, patch, "eighteen", "only the first commit's change")

	// Applied to an index at base, the patch gives exactly the first commit.
	gitT(t, root, "reset", "-q", base)
	cmd := exec.Command("git", "apply", "--cached", "-")
	cmd.Dir = root
	cmd.Stdin = strings.NewReader(patch)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	require.Equal(t, gitT(t, root, "rev-parse", first+"^{tree}"), gitT(t, root, "write-tree"))

	msg, err := r.Message(ctx, first)
	require.NoError(t, err)
	require.Equal(t, "first\n", msg)
}

// CommitOwn says which commit its commit was made on.
func TestCommitOwnReturnsTheParent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)
	before, err := r.Head(ctx, "")
	require.NoError(t, err)
	writeFile(t, root, "new.txt", "new\n")
	made, ch, err := r.CommitOwn(ctx, "", Known{}, func(Changes) string { return "own" })
	require.NoError(t, err)
	require.Equal(t, before, made.Parent)
	require.Equal(t, gitT(t, root, "rev-parse", "HEAD"), made.SHA)
	require.Equal(t, []string{"new.txt"}, ch.Created)

	made, _, err = r.CommitOwn(ctx, "", Known{}, func(Changes) string { return "nothing" })
	require.NoError(t, err)
	require.Empty(t, made.SHA, "nothing to commit")
}
