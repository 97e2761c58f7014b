package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/config"
	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/temporaltest"
)

func TestRemoteOptionsRefuseBadCombinations(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := &remoteOptions{remote: "/srv/shared.git"}
	_, err := r.executor(ctx, config.Executor{}, "/repo", "/repo", 1, 0)
	require.Equal(t, exitcode.Usage, exitcode.Of(err))
	require.ErrorContains(t, err, "only a run with --executor temporal uses a remote")

	r = &remoteOptions{kind: "temporal"}
	_, err = r.executor(ctx, config.Executor{}, "/repo", "/repo", 1, 0)
	require.Equal(t, exitcode.Usage, exitcode.Of(err))
	require.ErrorContains(t, err, "needs --remote URL")

	r = &remoteOptions{kind: "k8s"}
	_, err = r.executor(ctx, config.Executor{}, "/repo", "/repo", 1, 0)
	require.Equal(t, exitcode.Usage, exitcode.Of(err))

	x, err := (&remoteOptions{}).executor(ctx, config.Executor{}, "/repo", "/repo", 1, 0)
	require.NoError(t, err)
	require.Nil(t, x, "local: the engine's own executor")
}

// No server at the address: exit 3, naming the address and the fix, well
// within 10 seconds. [executor] in autobuild.toml is read the same way.
func TestRemoteOptionsNoServerIsRefusedQuickly(t *testing.T) {
	t.Parallel()
	addr := temporaltest.ClosedAddress(t)
	start := time.Now()
	r := &remoteOptions{}
	_, err := r.executor(context.Background(), config.Executor{Kind: "temporal", Address: addr, Remote: t.TempDir()}, t.TempDir(), t.TempDir(), 1, 0)
	require.Less(t, time.Since(start), 10*time.Second)
	require.Equal(t, exitcode.Refused, exitcode.Of(err))
	require.ErrorContains(t, err, addr)
	require.ErrorContains(t, err, "temporal server start-dev")
}

// A remote run says at its start that the ignored files [worktree] copy and
// .worktreeinclude name do not reach the workers; without any it says
// nothing.
func TestCopyNoteNamesWhatDoesNotReachTheWorkers(t *testing.T) {
	root := t.TempDir()
	if note := copyNote(root, nil); note != "" {
		t.Fatalf("no patterns: %q", note)
	}
	if err := os.WriteFile(filepath.Join(root, ".worktreeinclude"), []byte("# env\n.env\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	note := copyNote(root, []string{"node_modules/"})
	for _, want := range []string{"node_modules/", ".env", "do not get them", "[worktree] setup"} {
		if !strings.Contains(note, want) {
			t.Errorf("note %q does not say %q", note, want)
		}
	}
}
