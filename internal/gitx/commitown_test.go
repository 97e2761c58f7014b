package gitx

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A change of every kind: a new file in a new directory, a modified, a
// deleted and a renamed one, names that would be pathspec magic, and an
// executable bit.
func changeEverything(t *testing.T, root string) {
	t.Helper()
	commitFiles(t, root, "files", "a.txt", "a\n", "b.txt", "b\n", "old.txt", "old\n", "run.sh", "echo\n")

	writeFile(t, root, "deep/new/c.txt", "c\n")
	writeFile(t, root, "a.txt", "a, changed\n")
	require.NoError(t, os.Remove(filepath.Join(root, "b.txt")))
	gitT(t, root, "mv", "old.txt", "renamed.txt")
	writeFile(t, root, "*.txt", "star\n")
	writeFile(t, root, ":(glob)x", "magic\n")
	require.NoError(t, os.Chmod(filepath.Join(root, "run.sh"), 0o755))
}

// The commit made from the paths the caller knows is the commit git add -A
// and git commit make: same tree, same message, HEAD's branch moved, and
// the worktree left clean.
func TestCommitOwnFromKnownPathsIsTheWholeChange(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)
	changeEverything(t, root)
	files, err := StatusFiles(ctx, root)
	require.NoError(t, err)
	want := addAllTree(t, root)
	head := gitT(t, root, "rev-parse", "HEAD")

	made, ch, err := r.CommitOwn(ctx, "", Known{Files: files, Exact: true}, func(ch Changes) string {
		return "  Phase work  \n\n\n" + strings.Join(ch.Files(), ",") + "\t\n\n"
	})
	require.NoError(t, err)
	require.Equal(t, head, made.Parent)
	require.Equal(t, gitT(t, root, "rev-parse", "HEAD"), made.SHA, "HEAD's branch moved")
	require.Equal(t, gitT(t, root, "rev-parse", "refs/heads/main"), made.SHA)
	require.Equal(t, want, gitT(t, root, "rev-parse", "HEAD^{tree}"))
	msg, err := r.Message(ctx, made.SHA)
	require.NoError(t, err)
	require.Equal(t, "  Phase work\n\n*.txt,:(glob)x,a.txt,b.txt,deep/new/c.txt,old.txt,renamed.txt,run.sh\n", msg)
	require.Equal(t, []string{"*.txt", ":(glob)x", "deep/new/c.txt", "renamed.txt"}, ch.Created)
	require.Equal(t, []string{"a.txt", "run.sh"}, ch.Modified)
	require.Equal(t, []string{"b.txt", "old.txt"}, ch.Deleted)
	require.Empty(t, gitT(t, root, "status", "--porcelain"), "the index is the commit's")
	require.Contains(t, gitT(t, root, "reflog", "-1", "main"), "commit: Phase work")
}

// The known paths are all that is staged: a file the caller did not list
// is left out. (What the engine passes is the status read after the
// agent, so there is none; this shows that the tree is not walked.)
func TestCommitOwnStagesOnlyTheKnownPaths(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)
	writeFile(t, root, "listed.txt", "1\n")
	writeFile(t, root, "unlisted.txt", "2\n")
	_, ch, err := r.CommitOwn(ctx, "", Known{Files: []string{"listed.txt"}, Exact: true}, func(Changes) string { return "m" })
	require.NoError(t, err)
	require.Equal(t, []string{"listed.txt"}, ch.Created)
	require.Equal(t, "?? unlisted.txt", gitT(t, root, "status", "--porcelain"))

	made, _, err := r.CommitOwn(ctx, "", Known{Exact: true}, func(Changes) string { return "nothing" })
	require.NoError(t, err)
	require.Empty(t, made.SHA, "nothing known to have changed")
}

// When what the paths stage is not the tree the caller recorded (a gate
// staged or committed something), or git refuses a path, everything is
// staged: the commit is the worktree's content all the same.
func TestCommitOwnFallsBackToTheWholeTree(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for name, known := range map[string]func(root string) Known{
		"tree differs": func(root string) Known {
			tree, err := SnapshotTree(context.Background(), root)
			require.NoError(t, err)
			return Known{Files: []string{"one.txt"}, Exact: true, Tree: tree}
		},
		"a path git refuses": func(string) Known {
			return Known{Files: []string{"one.txt", "two.txt", "gone.txt"}, Exact: true}
		},
		"unknown": func(string) Known { return Known{} },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r, root := newRepo(t)
			writeFile(t, root, "one.txt", "1\n")
			writeFile(t, root, "two.txt", "2\n")
			k := known(root)
			want := addAllTree(t, root)
			_, ch, err := r.CommitOwn(ctx, "", k, func(Changes) string { return "m" })
			require.NoError(t, err)
			require.Equal(t, []string{"one.txt", "two.txt"}, ch.Created)
			require.Equal(t, want, gitT(t, root, "rev-parse", "HEAD^{tree}"))
			require.Empty(t, gitT(t, root, "status", "--porcelain"))
		})
	}
}

func TestCommitOwnSignsWhenCommitsAreSigned(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, root := newRepo(t)
	signWithStandIn(t, root)
	r, err := Open(ctx, root)
	require.NoError(t, err)
	writeFile(t, root, "new.txt", "new\n")
	made, _, err := r.CommitOwn(ctx, "", Known{Files: []string{"new.txt"}, Exact: true}, func(Changes) string { return "m" })
	require.NoError(t, err)
	require.Contains(t, gitT(t, root, "cat-file", "commit", made.SHA), "gpgsig -----BEGIN PGP SIGNATURE-----")
}

// CleanMessage stores what git commit -F stores: git stripspace without
// its comment stripping is the reference.
func TestCleanMessageIsGitsWhitespaceCleanup(t *testing.T) {
	t.Parallel()
	for _, msg := range []string{
		"subject", "subject\n", "\n\n  \nsubject  \n\n\n\nbody\t\n\n", "a\r\nb\r\n\r\n\r\nc",
		"# kept\n\n#also", "", "\n\n", "x\n \n \ny\n", "trailing \v\f\n",
	} {
		want := stripspace(t, msg)
		require.Equal(t, want, CleanMessage(msg), "%q", msg)
	}
}

// stripspace is `git stripspace` of s.
func stripspace(t *testing.T, s string) string {
	t.Helper()
	out, err := run(context.Background(), t.TempDir(), runOpts{stdin: strings.NewReader(s)}, "stripspace")
	require.NoError(t, err)
	return out
}

// The head the caller names is the commit's parent, and the branch moves
// only from it: a HEAD that moved since is an error, and nothing moves.
func TestCommitOwnMovesTheBranchOnlyFromTheKnownHead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)
	base := gitT(t, root, "rev-parse", "HEAD")
	writeFile(t, root, "a.txt", "a\n")
	made, _, err := r.CommitOwn(ctx, "", Known{Files: []string{"a.txt"}, Exact: true, Head: base}, func(Changes) string { return "a" })
	require.NoError(t, err)
	require.Equal(t, base, made.Parent)

	writeFile(t, root, "b.txt", "b\n")
	_, _, err = r.CommitOwn(ctx, "", Known{Files: []string{"b.txt"}, Exact: true, Head: base}, func(Changes) string { return "b" })
	require.Error(t, err, "HEAD is no longer at base")
	require.Equal(t, made.SHA, gitT(t, root, "rev-parse", "HEAD"))
}
