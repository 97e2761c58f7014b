package gitx

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

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

// integration makes the integration worktree at base.
func integration(t *testing.T, r *Repo, root, base string) string {
	t.Helper()
	dir := filepath.Join(root, ".autobuild", "worktrees", "integration")
	require.NoError(t, r.AddWorktree(context.Background(), dir, "autobuild/integration", base))
	return dir
}

func TestCherryPickDifferentLines(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)
	base, err := r.Head(ctx, "")
	require.NoError(t, err)
	a := phaseCommit(t, r, root, "2a", base, map[int]string{2: "A was here"})
	b := phaseCommit(t, r, root, "2b", base, map[int]string{15: "B was here"})
	integ := integration(t, r, root, base)

	tipA, conflicted, err := r.CherryPick(ctx, integ, a)
	require.NoError(t, err)
	require.Empty(t, conflicted)
	tipB, conflicted, err := r.CherryPick(ctx, integ, b)
	require.NoError(t, err)
	require.Empty(t, conflicted)
	require.NotEqual(t, tipA, tipB)
	head, err := r.Head(ctx, integ)
	require.NoError(t, err)
	require.Equal(t, tipB, head)
	require.Equal(t, numbered(20, map[int]string{2: "A was here", 15: "B was here"}), readFile(t, integ, "f.txt"))

	ra, err := ChangedRanges(ctx, root, base, a, "f.txt")
	require.NoError(t, err)
	rb, err := ChangedRanges(ctx, root, base, b, "f.txt")
	require.NoError(t, err)
	require.Equal(t, []LineRange{{2, 2}}, ra)
	require.Equal(t, []LineRange{{15, 15}}, rb)
	require.False(t, Overlap(ra, rb))

	// Picking a change that is already there is a success at HEAD.
	again, conflicted, err := r.CherryPick(ctx, integ, a)
	require.NoError(t, err)
	require.Empty(t, conflicted)
	require.Equal(t, tipB, again)

	commits, err := r.PhaseCommits(ctx, base, tipB)
	require.NoError(t, err)
	require.Equal(t, map[phaseid.ID]string{"2a": tipA, "2b": tipB}, commits)
}

func TestCherryPickConflict(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)
	base, err := r.Head(ctx, "")
	require.NoError(t, err)
	a := phaseCommit(t, r, root, "2a", base, map[int]string{5: "A five", 6: "A six"})
	b := phaseCommit(t, r, root, "2b", base, map[int]string{6: "B six", 7: "B seven"})
	integ := integration(t, r, root, base)

	tipA, conflicted, err := r.CherryPick(ctx, integ, a)
	require.NoError(t, err)
	require.Empty(t, conflicted)

	newSHA, conflicted, err := r.CherryPick(ctx, integ, b)
	require.NoError(t, err)
	require.Empty(t, newSHA)
	require.Equal(t, []string{"f.txt"}, conflicted)

	head, err := r.Head(ctx, integ)
	require.NoError(t, err)
	require.Equal(t, tipA, head, "HEAD did not move")
	files, err := StatusFiles(ctx, integ)
	require.NoError(t, err)
	require.Empty(t, files, "the worktree is clean after the abort")
	require.Equal(t, numbered(20, map[int]string{5: "A five", 6: "A six"}), readFile(t, integ, "f.txt"))

	ra, err := ChangedRanges(ctx, root, base, a, "f.txt")
	require.NoError(t, err)
	rb, err := ChangedRanges(ctx, root, base, b, "f.txt")
	require.NoError(t, err)
	require.Equal(t, []LineRange{{5, 6}}, ra)
	require.Equal(t, []LineRange{{6, 7}}, rb)
	require.True(t, Overlap(ra, rb))
}

func TestCherryPickError(t *testing.T) {
	t.Parallel()
	r, _ := newRepo(t)
	_, conflicted, err := r.CherryPick(context.Background(), "", "0123456789012345678901234567890123456789")
	require.Error(t, err)
	require.Empty(t, conflicted)
	require.Contains(t, err.Error(), "git cherry-pick")
}

func TestFastForwardAndIsAncestor(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)
	base, err := r.Head(ctx, "")
	require.NoError(t, err)
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

	require.NoError(t, r.ResetHard(ctx, root, base))
	head, err = r.Head(ctx, "")
	require.NoError(t, err)
	require.Equal(t, base, head)
	require.Equal(t, numbered(20, nil), readFile(t, root, "f.txt"))
}

func TestSquashMergeAndUnstage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)
	require.NoError(t, r.Exclude("/.autobuild/"))
	base, err := r.Head(ctx, "")
	require.NoError(t, err)
	a := phaseCommit(t, r, root, "1", base, map[int]string{1: "one"})
	integ := integration(t, r, root, base)
	_, _, err = r.CherryPick(ctx, integ, a)
	require.NoError(t, err)
	writeFile(t, integ, "docs/new.md", "new\n")
	_, _, err = r.CommitAll(ctx, integ, "docs")
	require.NoError(t, err)

	require.NoError(t, r.SquashMerge(ctx, root, "autobuild/integration"))
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

func TestAbortInProgress(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)
	base, err := r.Head(ctx, "")
	require.NoError(t, err)
	a := phaseCommit(t, r, root, "2a", base, map[int]string{3: "A"})
	b := phaseCommit(t, r, root, "2b", base, map[int]string{3: "B"})
	integ := integration(t, r, root, base)
	_, _, err = r.CherryPick(ctx, integ, a)
	require.NoError(t, err)

	require.NoError(t, r.AbortInProgress(ctx, integ), "nothing in progress is fine")

	// What a process killed mid-pick leaves behind.
	cmd := []string{"-c", "user.name=x", "-c", "user.email=x@y", "cherry-pick", b}
	require.Error(t, runIgnoring(integ, cmd...))
	require.Contains(t, gitT(t, integ, "status", "--porcelain"), "UU f.txt")
	require.NoError(t, r.AbortInProgress(ctx, integ))
	require.Empty(t, gitT(t, integ, "status", "--porcelain"))

	// A half-done merge too.
	require.Error(t, runIgnoring(integ, "-c", "user.name=x", "-c", "user.email=x@y", "merge", "--no-edit", "autobuild/phase-2b"))
	require.NoError(t, r.AbortInProgress(ctx, integ))
	require.Empty(t, gitT(t, integ, "status", "--porcelain"))
	require.NoError(t, r.ResetHard(ctx, integ, "HEAD"))
}

// runIgnoring runs git expecting it may fail, and returns its error.
func runIgnoring(dir string, args ...string) error {
	_, err := run(context.Background(), dir, runOpts{}, args...)
	return err
}

func TestResetSoftFoldsCommits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)
	base, err := r.Head(ctx, "")
	require.NoError(t, err)
	writeFile(t, root, "a.txt", "a\n")
	_, _, err = r.CommitAll(ctx, "", "agent commit 1")
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
	r, root := newRepo(t)
	base, err := r.Head(ctx, "")
	require.NoError(t, err)

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

// A commit's author time survives a cherry-pick: it says when the change
// was first committed, wherever it was picked to since.
func TestAuthorTimeSurvivesCherryPick(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root := newRepo(t)
	base, err := r.Head(ctx, "")
	require.NoError(t, err)
	wt := filepath.Join(root, ".autobuild", "worktrees", "phase-1")
	require.NoError(t, r.AddWorktree(ctx, wt, "autobuild/phase-1", base))
	writeFile(t, wt, "new.txt", "new\n")
	gitT(t, wt, "add", "-A")
	commit := exec.Command("git", "commit", "-q", "-m", "phase 1")
	commit.Dir = wt
	commit.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2001-02-03T04:05:06Z", "GIT_COMMITTER_DATE=2001-02-03T04:05:06Z")
	out, err := commit.CombinedOutput()
	require.NoError(t, err, "%s", out)
	sha := gitT(t, wt, "rev-parse", "HEAD")

	picked, conflicts, err := r.CherryPick(ctx, integration(t, r, root, base), sha)
	require.NoError(t, err)
	require.Empty(t, conflicts)
	require.NotEqual(t, sha, picked, "the pick has a committer time of its own")
	for _, c := range []string{sha, picked} {
		at, err := r.AuthorTime(ctx, c)
		require.NoError(t, err)
		require.True(t, time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC).Equal(at), "%s: %s", c, at)
	}
	_, err = r.AuthorTime(ctx, "no-such-commit")
	require.Error(t, err)
}
