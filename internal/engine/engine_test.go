package engine

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// A Ctrl-C that arrives while the run is starting (its git commands are
// stopped) ends it as interrupted, exit 130, not as a refusal to start.
func TestRunInterruptedWhileStartingExits130(t *testing.T) {
	t.Parallel()
	dir := gitRepo(t, diamondPlan)
	pl, err := plan.Parse(filepath.Join(dir, "plan.md"), []byte(diamondPlan))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Run(ctx, Config{Dir: dir, Plan: pl, CommitMode: state.CommitAuto, Agents: []agent.Agent{{Name: "true", Args: []string{"true"}}}})
	require.Error(t, err)
	require.Equal(t, exitcode.Interrupted, exitcode.Of(err), "%v", err)
	require.Equal(t, "interrupted before any phase started, while opening the repository: run the same command again to continue", err.Error())
	require.ErrorIs(t, err, context.Canceled, "what the step returned stays in the chain")
}
