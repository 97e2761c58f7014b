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

// show returns a file of a commit, read from git's objects.
func show(t *testing.T, r *Repo, commit, name string) string {
	t.Helper()
	out, err := r.read(context.Background(), "", "show", commit+":"+name)
	require.NoError(t, err)
	return out
}

func TestPickDifferentLines(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root, base := newRepoAtBase(t)
	a := phaseCommit(t, r, root, "2a", base, map[int]string{2: "A was here"})
	b := phaseCommit(t, r, root, "2b", base, map[int]string{15: "B was here"})
	status := gitT(t, root, "status", "--porcelain")

	tipA, conflicted, err := r.Pick(ctx, base, a, true)
	require.NoError(t, err)
	require.Empty(t, conflicted)
	tipB, conflicted, err := r.Pick(ctx, tipA, b, true)
	require.NoError(t, err)
	require.Empty(t, conflicted)
	require.Equal(t, tipA, gitT(t, root, "rev-parse", tipB+"^"), "one commit on top of the other")
	require.Equal(t, numbered(20, map[int]string{2: "A was here", 15: "B was here"}), show(t, r, tipB, "f.txt"))
	require.Equal(t, status, gitT(t, root, "status", "--porcelain"), "no work tree was touched")
	head, err := r.Head(ctx, "")
	require.NoError(t, err)
	require.Equal(t, base, head, "no branch moved")

	ra, err := ChangedRanges(ctx, root, base, a, "f.txt")
	require.NoError(t, err)
	rb, err := ChangedRanges(ctx, root, base, b, "f.txt")
	require.NoError(t, err)
	require.Equal(t, []LineRange{{2, 2}}, ra)
	require.Equal(t, []LineRange{{15, 15}}, rb)
	require.False(t, Overlap(ra, rb))

	// Picking a change that is already there is a success at onto.
	again, conflicted, err := r.Pick(ctx, tipB, a, true)
	require.NoError(t, err)
	require.Empty(t, conflicted)
	require.Equal(t, tipB, again)

	commits, err := r.PhaseCommits(ctx, base, tipB)
	require.NoError(t, err)
	require.Equal(t, map[phaseid.ID]string{"2a": tipA, "2b": tipB}, commits)
}

func TestPickConflict(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root, base := newRepoAtBase(t)
	a := phaseCommit(t, r, root, "2a", base, map[int]string{5: "A five", 6: "A six"})
	b := phaseCommit(t, r, root, "2b", base, map[int]string{6: "B six", 7: "B seven"})
	writeFile(t, filepath.Join(root, ".autobuild", "worktrees", "phase-2b"), "g.txt", "clean\n")
	b2, _, err := r.CommitAll(ctx, filepath.Join(root, ".autobuild", "worktrees", "phase-2b"), "more")
	require.NoError(t, err)

	tipA, conflicted, err := r.Pick(ctx, base, a, true)
	require.NoError(t, err)
	require.Empty(t, conflicted)

	newSHA, conflicted, err := r.Pick(ctx, tipA, b, true)
	require.NoError(t, err)
	require.Empty(t, newSHA)
	require.Equal(t, []string{"f.txt"}, conflicted)

	// Only the conflicted paths are named, not the ones that merged.
	_, conflicted, err = r.Pick(ctx, tipA, b2, false)
	require.NoError(t, err)
	require.Empty(t, conflicted, "b2 alone (g.txt) does not touch f.txt")
	_, conflicted, err = r.Pick(ctx, tipA, b2, true)
	require.NoError(t, err)
	require.Equal(t, []string{"f.txt"}, conflicted, "b and b2 together do")
}

// With parentInOnto false, only the commit's own change is picked, not
// those of its ancestors that onto lacks: what cherry-pick does.
func TestPickOntoOtherCommitsTakesOnlyTheChange(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root, base := newRepoAtBase(t)
	first := phaseCommit(t, r, root, "1", base, map[int]string{2: "first"})
	wt := filepath.Join(root, ".autobuild", "worktrees", "phase-1")
	writeFile(t, wt, "f.txt", numbered(20, map[int]string{2: "first", 15: "second"}))
	second, _, err := r.CommitAll(ctx, wt, "second")
	require.NoError(t, err)
	writeFile(t, root, "fix.txt", "fix\n")
	gitT(t, root, "add", "fix.txt")
	gitT(t, root, "commit", "-q", "-m", "a fix")
	fix, err := r.Head(ctx, "")
	require.NoError(t, err)

	picked, conflicted, err := r.Pick(ctx, fix, second, false)
	require.NoError(t, err)
	require.Empty(t, conflicted)
	require.Equal(t, numbered(20, map[int]string{15: "second"}), show(t, r, picked, "f.txt"), "first's line 2 stays out")
	require.Equal(t, "fix\n", show(t, r, picked, "fix.txt"))
	require.Equal(t, fix, gitT(t, root, "rev-parse", picked+"^"))

	// Both, in order: the line as the run made it, on top of the fix.
	one, _, err := r.Pick(ctx, fix, first, false)
	require.NoError(t, err)
	two, _, err := r.Pick(ctx, one, second, false)
	require.NoError(t, err)
	require.Equal(t, numbered(20, map[int]string{2: "first", 15: "second"}), show(t, r, two, "f.txt"))
}

// A picked commit keeps the author, the author time and the message byte
// for byte (reconcile reads the author time; the trailer names the
// phase); the committer is the repository's identity.
func TestPickKeepsAuthorAndMessage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root, base := newRepoAtBase(t)
	wt := filepath.Join(root, ".autobuild", "worktrees", "phase-1")
	require.NoError(t, r.AddWorktree(ctx, wt, "autobuild/phase-1", base))
	writeFile(t, wt, "new.txt", "new\n")
	gitT(t, wt, "add", "-A")
	msg := "feat: phase 1\n\nBody line.\n\nAutobuild-Phase: 1\n"
	commit := exec.Command("git", "commit", "-q", "-m", msg)
	commit.Dir = wt
	commit.Env = append(os.Environ(), "GIT_AUTHOR_NAME=Ada Lovelace", "GIT_AUTHOR_EMAIL=ada@example.com",
		"GIT_AUTHOR_DATE=2001-02-03T04:05:06+0130", "GIT_COMMITTER_DATE=2001-02-03T04:05:06Z")
	out, err := commit.CombinedOutput()
	require.NoError(t, err, "%s", out)
	sha := gitT(t, wt, "rev-parse", "HEAD")

	picked, conflicts, err := r.Pick(ctx, base, sha, true)
	require.NoError(t, err)
	require.Empty(t, conflicts)
	require.NotEqual(t, sha, picked, "the pick has a committer time of its own")
	format := "%an|%ae|%ad|%B"
	require.Equal(t, gitT(t, root, "log", "-1", "--date=raw", "--format="+format, sha),
		gitT(t, root, "log", "-1", "--date=raw", "--format="+format, picked))
	require.Equal(t, "Test User <test@example.com>", gitT(t, root, "log", "-1", "--format=%cn <%ce>", picked))
	for _, c := range []string{sha, picked} {
		at, err := r.AuthorTime(ctx, c)
		require.NoError(t, err)
		require.True(t, time.Date(2001, 2, 3, 2, 35, 6, 0, time.UTC).Equal(at), "%s: %s", c, at)
	}
	_, err = r.AuthorTime(ctx, "no-such-commit")
	require.Error(t, err)
}

func TestPickError(t *testing.T) {
	t.Parallel()
	r, _ := newRepo(t)
	ctx := context.Background()
	base, err := r.Head(ctx, "")
	require.NoError(t, err)
	_, conflicted, err := r.Pick(ctx, base, "0123456789012345678901234567890123456789", true)
	require.Error(t, err)
	require.Empty(t, conflicted)
	require.Contains(t, err.Error(), "git merge-tree")
}

// MoveBranch moves a branch only from where the caller last saw it.
func TestMoveBranch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root, base := newRepoAtBase(t)
	a := phaseCommit(t, r, root, "1", base, map[int]string{1: "one"})

	_, ok, err := r.BranchCommit(ctx, "autobuild/line")
	require.NoError(t, err)
	require.False(t, ok)
	require.NoError(t, r.MoveBranch(ctx, "autobuild/line", base, ""))
	at, ok, err := r.BranchCommit(ctx, "autobuild/line")
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, base, at)

	require.NoError(t, r.MoveBranch(ctx, "autobuild/line", a, base))
	err = r.MoveBranch(ctx, "autobuild/line", base, base)
	require.Error(t, err, "moved meanwhile: not overwritten")
	at, _, err = r.BranchCommit(ctx, "autobuild/line")
	require.NoError(t, err)
	require.Equal(t, a, at)
}

func TestNewestNotIn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root, base := newRepoAtBase(t)
	commit := func(name string) string {
		writeFile(t, root, name, name+"\n")
		gitT(t, root, "add", name)
		gitT(t, root, "commit", "-q", "-m", name)
		return gitT(t, root, "rev-parse", "HEAD")
	}
	one, two, three := commit("one"), commit("two"), commit("three")

	got, err := r.NewestNotIn(ctx, three, []string{one, two, three})
	require.NoError(t, err)
	require.Empty(t, got, "head holds them all")
	got, err = r.NewestNotIn(ctx, one, []string{three, one, two})
	require.NoError(t, err)
	require.Equal(t, three, got, "the one nearest the tip, whatever the order given")
	got, err = r.NewestNotIn(ctx, base, nil)
	require.NoError(t, err)
	require.Empty(t, got)
	_, err = r.NewestNotIn(ctx, base, []string{"0123456789012345678901234567890123456789"})
	require.Error(t, err, "a commit that is gone")
}

// With commit.gpgSign set, a picked commit is signed as git commit signs
// (cherry-pick did); without it, it is not.
func TestPickSignsWhenCommitsAreSigned(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, root, base := newRepoAtBase(t)
	a := phaseCommit(t, r, root, "2a", base, map[int]string{2: "A"})
	b := phaseCommit(t, r, root, "2b", base, map[int]string{15: "B"})
	tipA, _, err := r.Pick(ctx, base, a, true)
	require.NoError(t, err)
	unsigned, _, err := r.Pick(ctx, tipA, b, true)
	require.NoError(t, err)
	require.NotContains(t, gitT(t, root, "cat-file", "commit", unsigned), "gpgsig")

	signWithStandIn(t, root)
	signing, err := Open(ctx, root)
	require.NoError(t, err)
	signed, _, err := signing.Pick(ctx, tipA, b, true)
	require.NoError(t, err)
	require.Contains(t, gitT(t, root, "cat-file", "commit", signed), "gpgsig -----BEGIN PGP SIGNATURE-----")
}
