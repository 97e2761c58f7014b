package line

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/checkout"
	"github.com/autobuild-sh/autobuild/internal/gitx"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/record"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// An attempt whose after-check sees your branch moved by the run's own
// landing (in auto mode your branch is the line) has nothing of an agent's
// to look for, and does not wait for mu: a landing about to verify holds
// mu while it waits for this attempt to queue its own (collect), so
// waiting here split every group of landings ready together in two (8
// parallel phases: 1.70× the unverified wall time instead of 1.23×).
func TestAgentCommitsCheckOfTheRunsOwnLandingTakesNoLock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gitRepo(t, "# plan\n")
	base := runGit(t, dir, "rev-parse", "HEAD")
	runGit(t, dir, "commit", "-q", "--allow-empty", "-m", "a landing")
	landed := runGit(t, dir, "rev-parse", "HEAD")
	repo, err := gitx.Open(ctx, dir)
	require.NoError(t, err)
	run := &state.Run{RunID: "r1", Branch: "main"}
	in := New(repo, record.New(state.Open(dir), nil, time.Now, run, map[phaseid.ID]*state.Phase{}), yourBranch{}, dir, base)
	in.setTip(landed)

	before := checkout.State{Refs: map[string]string{"refs/heads/main": base}}
	after := checkout.State{Refs: map[string]string{"refs/heads/main": landed}}
	in.mu.Lock() // as a landing in collect holds it
	defer in.mu.Unlock()
	done := make(chan error, 1)
	go func() {
		if rep := in.Guard.AgentCommits(ctx, &plan.Phase{ID: "2b", DisplayID: "2B"}, before, after, io.Discard); rep != nil {
			done <- fmt.Errorf("a report: %s", rep.Message)
			return
		}
		done <- nil
	}()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("the check waited for mu")
	}
}
