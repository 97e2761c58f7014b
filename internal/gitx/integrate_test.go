package gitx

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// phaseCommit makes a worktree for branch from base, writes f.txt with
// edits, commits it and returns the commit.
func phaseCommit(t *testing.T, r *Repo, root, id, base string, edits map[int]string) string {
	t.Helper()
	ctx := context.Background()
	wt := filepath.Join(root, ".autobuild", "worktrees", "phase-"+id)
	require.NoError(t, r.AddWorktree(ctx, wt, "autobuild/phase-"+id, base))
	writeFile(t, wt, "f.txt", numbered(20, edits))
	sha, _, err := r.CommitAll(ctx, wt, ConventionalMessage(MessageInput{PhaseID: phaseid.ID(id), DisplayID: phaseid.Display(id), Name: "Phase " + id}))
	require.NoError(t, err)
	require.NotEmpty(t, sha)
	return sha
}

func TestFastForwardAndIsAncestor(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root, base := newRepoAtBase(t)
	a := phaseCommit(t, r, root, "1", base, map[int]string{1: "one"})

	ok, err := r.IsAncestor(ctx, base, a)
	require.NoError(t, err)
	require.True(t, ok)
	ok, err = r.IsAncestor(ctx, a, base)
	require.NoError(t, err)
	require.False(t, ok)
	_, err = r.IsAncestor(ctx, base, "no-such-commit")
	require.Error(t, err)

	require.NoError(t, r.FastForward(ctx, root, a))
	head, err := r.Head(ctx, "")
	require.NoError(t, err)
	require.Equal(t, a, head)
	require.Equal(t, "main", gitT(t, root, "rev-parse", "--abbrev-ref", "HEAD"))
	require.Equal(t, numbered(20, map[int]string{1: "one"}), readFile(t, root, "f.txt"))

	// Diverged: main has a commit the target lacks.
	b := phaseCommit(t, r, root, "2", base, map[int]string{9: "nine"})
	require.Error(t, r.FastForward(ctx, root, b))
	head, err = r.Head(ctx, "")
	require.NoError(t, err)
	require.Equal(t, a, head)
}

func TestSquashMergeAndUnstage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)
	require.NoError(t, r.Exclude("/.autobuild/"))
	base, err := r.Head(ctx, "")
	require.NoError(t, err)
	a := phaseCommit(t, r, root, "1", base, map[int]string{1: "one"})
	wt := filepath.Join(root, ".autobuild", "worktrees", "phase-1")
	writeFile(t, wt, "docs/new.md", "new\n")
	_, _, err = r.CommitAll(ctx, wt, "docs")
	require.NoError(t, err)
	require.NotEqual(t, a, gitT(t, wt, "rev-parse", "HEAD"))

	require.NoError(t, r.SquashMerge(ctx, root, "autobuild/phase-1"))
	head, err := r.Head(ctx, "")
	require.NoError(t, err)
	require.Equal(t, base, head, "the branch does not move")
	require.Equal(t, "A  docs/new.md\nM  f.txt", gitT(t, root, "status", "--porcelain"))

	require.NoError(t, r.UnstageAll(ctx, root))
	require.Equal(t, "M f.txt\n?? docs/", gitT(t, root, "status", "--porcelain"))
	require.Equal(t, "new\n", readFile(t, root, "docs/new.md"))
}

func TestSquashMergeConflict(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)
	require.NoError(t, r.Exclude("/.autobuild/"))
	base, err := r.Head(ctx, "")
	require.NoError(t, err)
	phaseCommit(t, r, root, "1", base, map[int]string{4: "theirs"})
	writeFile(t, root, "f.txt", numbered(20, map[int]string{4: "mine"}))
	gitT(t, root, "commit", "-qam", "mine")
	writeFile(t, root, "README.md", "# my own edit, uncommitted\n")

	err = r.SquashMerge(ctx, root, "autobuild/phase-1")
	var ce *ConflictError
	require.ErrorAs(t, err, &ce)
	require.Equal(t, []string{"f.txt"}, ce.Paths)
	require.Equal(t, "M README.md", gitT(t, root, "status", "--porcelain"), "only the user's own edit remains")
	require.Equal(t, numbered(20, map[int]string{4: "mine"}), readFile(t, root, "f.txt"))
}

func TestResetSoftFoldsCommits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root, base := newRepoAtBase(t)
	writeFile(t, root, "a.txt", "a\n")
	_, _, err := r.CommitAll(ctx, "", "agent commit 1")
	require.NoError(t, err)
	writeFile(t, root, "b.txt", "b\n")
	_, _, err = r.CommitAll(ctx, "", "agent commit 2")
	require.NoError(t, err)
	writeFile(t, root, "c.txt", "c\n")

	require.NoError(t, r.ResetSoft(ctx, "", base))
	head, err := r.Head(ctx, "")
	require.NoError(t, err)
	require.Equal(t, base, head)
	files, err := StatusFiles(ctx, root)
	require.NoError(t, err)
	require.Equal(t, []string{"a.txt", "b.txt", "c.txt"}, files, "every change is still there, uncommitted")
}

func TestRestoreFile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root, base := newRepoAtBase(t)

	changed, err := r.RestoreFile(ctx, "", base, "README.md")
	require.NoError(t, err)
	require.False(t, changed, "an unchanged file")

	writeFile(t, root, "README.md", "# test\n- [x] ticked by an agent\n")
	changed, err = r.RestoreFile(ctx, "", base, "README.md")
	require.NoError(t, err)
	require.True(t, changed)
	require.Equal(t, "# test\n", readFile(t, root, "README.md"))

	require.NoError(t, os.Remove(filepath.Join(root, "README.md")))
	gitT(t, root, "add", "-A")
	changed, err = r.RestoreFile(ctx, "", base, "README.md")
	require.NoError(t, err)
	require.True(t, changed, "a deleted file comes back")
	require.Empty(t, gitT(t, root, "status", "--porcelain"))

	changed, err = r.RestoreFile(ctx, "", base, "not-in-the-commit.md")
	require.NoError(t, err)
	require.False(t, changed)
}
