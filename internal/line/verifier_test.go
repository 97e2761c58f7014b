package line

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/gates"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// newVerifier is a verifier of repo with one gate.
func newVerifier(t *testing.T, repo, gate string) *Verifier {
	t.Helper()
	r, err := gitx.Open(context.Background(), repo)
	require.NoError(t, err)
	st := state.Open(repo)
	require.NoError(t, st.Init())
	return &Verifier{Repo: r, Gates: []gates.Gate{{Kind: "test", Command: gate, Declared: true}},
		Dir: st.VerifyWorktreePath(), LogPath: st.VerifyLogPath(), Timeout: time.Minute, Grace: time.Second,
		cache: map[string]verdict{}}
}

// No tree is verified twice: a second commit with the same tree takes the
// first one's verdict.
func TestATreeIsVerifiedOnce(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t, onePhase)
	runs := filepath.Join(t.TempDir(), "runs")
	v := newVerifier(t, repo, "echo run >> "+runs)
	head := runGit(t, repo, "rev-parse", "HEAD")
	same := runGit(t, repo, "commit-tree", head+"^{tree}", "-p", head, "-m", "same tree")
	for _, c := range []string{head, same, head} {
		vd, err := v.verify(context.Background(), c)
		require.NoError(t, err)
		require.Nil(t, vd.failed)
	}
	b, err := os.ReadFile(runs)
	require.NoError(t, err)
	require.Equal(t, "run\n", string(b))
	require.NoFileExists(t, filepath.Join(repo, "runs"), "the gates ran in the verification worktree")
}

// A gate that fails on a combination and passes when run again is flaky,
// not a conflict.
func TestFlakyGateOnACombinationIsNotBlamed(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t, onePhase)
	seen := filepath.Join(t.TempDir(), "seen")
	v := newVerifier(t, repo, "test -f "+seen+" || { touch "+seen+"; echo '--- FAIL: TestFlaky (0.00s)'; exit 1; }")
	vd, err := v.verify(context.Background(), "HEAD")
	require.NoError(t, err)
	require.Nil(t, vd.failed)
	require.Equal(t, []string{"test"}, vd.flaky)

	// One that fails twice counts.
	v = newVerifier(t, repo, "echo '--- FAIL: TestBroken (0.00s)'; exit 1")
	vd, err = v.verify(context.Background(), "HEAD")
	require.NoError(t, err)
	require.NotNil(t, vd.failed)
	require.Equal(t, "test", vd.failed.Kind)
}

// One culprit among eight landings ready together is found in at most
// three rounds of gate runs (the group's own, then bisection with two
// verifications side by side), wherever it is.
func TestBisectionFindsACulpritAmongEightInThreeRounds(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t, onePhase)
	var group []link
	for i := 1; i <= 8; i++ {
		require.NoError(t, os.WriteFile(filepath.Join(repo, strconv.Itoa(i)+".txt"), []byte("x\n"), 0o644))
		runGit(t, repo, "add", "-A")
		runGit(t, repo, "commit", "-q", "-m", strconv.Itoa(i))
		id := phaseid.ID(strconv.Itoa(i))
		group = append(group, link{l: &landing{p: &plan.Phase{ID: id, DisplayID: phaseid.Display(id)}},
			tip: runGit(t, repo, "rev-parse", "HEAD")})
	}
	for culprit := 1; culprit <= 8; culprit++ {
		v := newVerifier(t, repo, "! test -f "+strconv.Itoa(culprit)+".txt")
		v.Parallel = 2
		vd, err := v.verify(context.Background(), group[7].tip)
		require.NoError(t, err)
		require.NotNil(t, vd.failed)
		got, gate, rounds, err := v.bisect(context.Background(), group, vd.failed)
		require.NoError(t, err)
		require.Equal(t, culprit-1, got, "culprit %d", culprit)
		require.NotNil(t, gate)
		require.LessOrEqual(t, 1+rounds, 3, "culprit %d", culprit)
	}
}

func TestSpreadIsEvenAndInside(t *testing.T) {
	t.Parallel()
	require.Equal(t, []int{3, 6}, spread(0, 8, 2))
	require.Equal(t, []int{4}, spread(0, 8, 1))
	require.Equal(t, []int{1, 2}, spread(0, 3, 5))
	require.Empty(t, spread(3, 4, 2))
}
