package engine

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/checkout"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/record"
	"github.com/autobuild-sh/autobuild/internal/state"
)

func lockTestIntegrator(t *testing.T) (*integrator, string) {
	t.Helper()
	dir := gitRepo(t, "# plan\n")
	repo, err := gitx.Open(context.Background(), dir)
	require.NoError(t, err)
	base := runGit(t, dir, "rev-parse", "HEAD")
	run := &state.Run{RunID: "r1", BaseCommit: base, CommitMode: state.CommitAuto}
	rec := record.New(state.Open(dir), nil, time.Now, run, map[phaseid.ID]*state.Phase{})
	return newIntegrator(repo, rec, state.CommitAuto, dir, base), base
}

// A phase about to start reads the line's tip, and the outside check reads
// your checkout, while landings hold the integrator's lock (a read of your
// checkout waits only for a fast-forward: package checkout's
// TestReadsWaitForTheFastForward).
func TestReadsWaitOnlyForWhatTheyMustNotSee(t *testing.T) {
	t.Parallel()
	in, base := lockTestIntegrator(t)

	in.mu.Lock() // a landing under way
	tip := make(chan string)
	go func() { tip <- in.Tip() }()
	read := make(chan checkout.State)
	go func() { read <- in.guard.Snapshot(context.Background()) }()
	select {
	case got := <-tip:
		require.Equal(t, base, got)
	case <-time.After(5 * time.Second):
		t.Fatal("reading the tip waited for a landing")
	}
	select {
	case st := <-read:
		require.True(t, st.OK)
	case <-time.After(5 * time.Second):
		t.Fatal("reading your checkout waited for a landing")
	}
	in.mu.Unlock()
}
