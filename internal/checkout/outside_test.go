package checkout

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/record"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// fixedLine is a line that never moves, for a guard tested alone.
type fixedLine string

func (l fixedLine) Tip() string                    { return string(l) }
func (l fixedLine) WithTips(f func(tips []string)) { f([]string{string(l)}) }

// A read of your checkout waits for a fast-forward, which writes its
// files, and reads them only once it is done.
func TestReadsWaitForTheFastForward(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, string(out))
	}
	git("init", "-q", "-b", "main")
	git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "initial")
	repo, err := gitx.Open(context.Background(), dir)
	require.NoError(t, err)
	run := &state.Run{RunID: "r1", Branch: "main"}
	rec := record.New(state.Open(dir), nil, time.Now, run, map[phaseid.ID]*state.Phase{})
	g := New(repo, rec, dir, state.RefsOf(*run), fixedLine(""))

	read := make(chan State)
	g.files.Lock() // a fast-forward under way
	go func() { read <- g.Snapshot(context.Background()) }()
	select {
	case <-read:
		t.Fatal("your checkout was read while a fast-forward wrote it")
	case <-time.After(200 * time.Millisecond):
	}
	g.files.Unlock()
	require.True(t, (<-read).OK)
}
