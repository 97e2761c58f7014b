package engine

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/localexec"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// handoverSpy is the local executor, keeping the evidence it hands over.
type handoverSpy struct {
	inner executor.Executor
	mu    sync.Mutex
	got   []executor.Result
}

func (s *handoverSpy) Execute(ctx context.Context, a executor.Attempt, obs executor.AttemptObserver) executor.Result {
	ev := s.inner.Execute(ctx, a, obs)
	s.mu.Lock()
	s.got = append(s.got, ev)
	s.mu.Unlock()
	return ev
}

// The local executor hands over the paths the status after the agent
// listed (and, when gates ran, the tree the agent left, which the gates'
// changes were undone to), so that the commit stages those paths only;
// what lands is the agent's whole change all the same, gate debris aside.
func TestTheExecutorHandsOverTheChangeItRead(t *testing.T) {
	t.Parallel()
	const agentWork = `mkdir -p deep && echo new > deep/new.txt && echo star > '*.txt' && git rm -q seed.txt && git mv keep.txt moved.txt`
	for name, gates := range map[string]string{
		"no gate":       "",
		"a gate's file": "\n## Quality Gates\n\n- test: `echo debris > debris.txt`\n",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			repo, spy := runSeededOnePhase(t, gates, agentWork)
			require.Len(t, spy.got, 1)
			known := spy.got[0].Change
			require.True(t, known.Exact)
			require.Equal(t, []string{"*.txt", "deep/new.txt", "keep.txt", "moved.txt", "seed.txt"}, known.Files)
			require.Equal(t, gates != "", known.Tree != "", "the tree is recorded when gates run")
			require.Equal(t, "*.txt\ndeep/new.txt\nmoved.txt\nplan.md", runGit(t, repo, "ls-tree", "-r", "--name-only", "HEAD"))
			require.Empty(t, runGit(t, repo, "status", "--porcelain"))
		})
	}
}

// runSeededOnePhase runs a one-phase plan with gates (a "## Quality Gates"
// section, or "") in a repository that holds seed.txt and keep.txt, the
// local executor behind a spy, and checks that the run completes.
func runSeededOnePhase(t *testing.T, gates, agentWork string) (string, *handoverSpy) {
	t.Helper()
	planText := "# One\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n\n## Phase 1: Only\n" + gates
	repo := gitRepo(t, planText)
	require.NoError(t, os.WriteFile(filepath.Join(repo, "seed.txt"), []byte("seed\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(repo, "keep.txt"), []byte("keep\n"), 0o644))
	runGit(t, repo, "add", "-A")
	runGit(t, repo, "commit", "-qm", "seed")
	r, err := gitx.Open(context.Background(), repo)
	require.NoError(t, err)
	spy := &handoverSpy{inner: &localexec.Executor{Repo: r, Root: r.Root(), Grace: time.Second, Now: time.Now}}
	cfg := baseConfig(t, repo, planText, agentWork, &events{})
	cfg.Executor = spy
	res, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	return repo, spy
}
