package line

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/checkout"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/record"
	"github.com/autobuild-sh/autobuild/internal/state"
)

func lockTestIntegrator(t *testing.T) (*Integrator, string) {
	t.Helper()
	dir := gitRepo(t, "# plan\n")
	repo, err := gitx.Open(context.Background(), dir)
	require.NoError(t, err)
	base := runGit(t, dir, "rev-parse", "HEAD")
	run := &state.Run{RunID: "r1", BaseCommit: base, CommitMode: state.CommitAuto}
	rec := record.New(state.Open(dir), nil, time.Now, run, map[phaseid.ID]*state.Phase{})
	return New(repo, rec, yourBranch{}, dir, base), base
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
	go func() { read <- in.Guard.Snapshot(context.Background()) }()
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

// Ctrl-C (the attempt's context ends) stops the wait for the outside read,
// even when git status hangs (a slow fsmonitor hook, a huge tree).
func TestCtrlCStopsTheOutsideRead(t *testing.T) {
	in, _ := lockTestIntegrator(t)
	bin := t.TempDir()
	real, err := exec.LookPath("git")
	require.NoError(t, err)
	script := "#!/bin/sh\ncase \"$*\" in *'status --porcelain=v1 -z --untracked-files=all'*) sleep 3;; esac\nexec " + real + " \"$@\"\n"
	require.NoError(t, os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755))
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(200 * time.Millisecond); cancel() }()
	start := time.Now()
	st := in.Guard.Snapshot(ctx)
	require.Less(t, time.Since(start), 2*time.Second, "Ctrl-C stops waiting for git status")
	require.False(t, st.OK, "nothing to compare")
}
