package engine

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/localexec"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// onWorker is the local executor telling the observer that a worker took
// the attempt, as the remote executor does.
type onWorker struct {
	inner executor.Executor
	name  string
}

func (o onWorker) Execute(ctx context.Context, a executor.Attempt, obs executor.AttemptObserver) executor.Result {
	if wo, ok := obs.(executor.WorkerObserver); ok {
		wo.Worker(o.name)
	}
	return o.inner.Execute(ctx, a, obs)
}

// The worker an executor names is the attempt's in the phase file (watch,
// status and the history read it there) and an event for the front ends.
func TestTheAttemptsWorkerIsRecorded(t *testing.T) {
	t.Parallel()
	planText := "# One\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n\n## Phase 1: Only\n"
	repo := gitRepo(t, planText)
	r, err := gitx.Open(context.Background(), repo)
	require.NoError(t, err)
	sink := &events{}
	cfg := baseConfig(t, repo, planText, "echo done > done.txt", sink)
	cfg.Executor = onWorker{inner: &localexec.Executor{Repo: r, Root: r.Root(), Grace: time.Second, Now: time.Now}, name: "build-7:4242"}
	res, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	require.Equal(t, state.RunComplete, res.Status, res.Reason)

	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Len(t, p.Attempts, 1)
	require.Equal(t, "build-7:4242", p.Attempts[0].Worker)
	got := sink.of(event.PhaseWorker)
	require.Len(t, got, 1)
	require.Equal(t, "build-7:4242", got[0].Line)
	require.Equal(t, 1, got[0].Attempt)
}
