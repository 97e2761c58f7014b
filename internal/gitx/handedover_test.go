package gitx

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A tree made elsewhere is committed on the phase's base and its branch
// moved, without a worktree: the same commit CommitOwn makes of the same
// change in a worktree.
func TestCommitTreeIsCommitOwnWithoutAWorktree(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)
	changeEverything(t, root)
	head := gitT(t, root, "rev-parse", "HEAD")
	gitT(t, root, "add", "-A")
	tree := gitT(t, root, "write-tree")
	gitT(t, root, "reset", "--quiet")
	gitT(t, root, "branch", "phase", head)
	message := func(ch Changes) string { return "Phase work\n\n" + strings.Join(ch.Files(), ",") }

	made, ch, err := r.CommitTree(ctx, "phase", tree, head, message)
	require.NoError(t, err)
	require.Equal(t, head, made.Parent)
	require.Equal(t, gitT(t, root, "rev-parse", "refs/heads/phase"), made.SHA, "the branch moved")
	require.Equal(t, head, gitT(t, root, "rev-parse", "refs/heads/main"), "nothing else moved")
	require.Equal(t, tree, gitT(t, root, "rev-parse", made.SHA+"^{tree}"))

	own, ownCh, err := r.CommitOwn(ctx, "", Known{}, message)
	require.NoError(t, err)
	require.Equal(t, ownCh, ch)
	require.Equal(t, gitT(t, root, "rev-parse", own.SHA+"^{tree}"), tree)
	require.Equal(t, gitT(t, root, "log", "-1", "--format=%B", own.SHA), gitT(t, root, "log", "-1", "--format=%B", made.SHA))

	// A tree that is the base's is nothing to commit; a branch that moved
	// meanwhile is not moved.
	none, _, err := r.CommitTree(ctx, "phase", gitT(t, root, "rev-parse", head+"^{tree}"), head, message)
	require.NoError(t, err)
	require.Empty(t, none.SHA)
	_, _, err = r.CommitTree(ctx, "phase", tree, head, message)
	require.Error(t, err, "the branch is no longer at head")
}

// The paths a commit changes are named as the status names them, a
// gitlink as a directory; the work put in a worktree is staged there, HEAD
// where it was.
func TestCommitFilesAndPutWork(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, root := newRepo(t)
	changeEverything(t, root)
	gitT(t, root, "add", "-A")
	gitT(t, root, "commit", "--quiet", "-m", "work")
	work := gitT(t, root, "rev-parse", "HEAD")
	base := gitT(t, root, "rev-parse", "HEAD~1")
	files, err := CommitFiles(ctx, root, base, work)
	require.NoError(t, err)
	gitT(t, root, "reset", "--quiet", "--mixed", base)
	status, err := StatusFiles(ctx, root)
	require.NoError(t, err)
	require.Equal(t, status, files)

	gitT(t, root, "reset", "--quiet", "--hard", base)
	gitT(t, root, "clean", "-fdq")
	writeFile(t, root, "stray.txt", "not the work\n")
	require.NoError(t, PutWork(ctx, root, work))
	require.Equal(t, base, gitT(t, root, "rev-parse", "HEAD"))
	require.Equal(t, gitT(t, root, "rev-parse", work+"^{tree}"), gitT(t, root, "write-tree"))
	require.NotContains(t, gitT(t, root, "status", "--porcelain"), "stray.txt")
}
