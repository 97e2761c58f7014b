package agenttest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/agenttest/mockapi"
	"github.com/autobuild-sh/autobuild/internal/engine"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/schedule"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// A person's note to a running claude phase (the UI's M, autobuild steer)
// stops the CLI while its model is still thinking, and the phase goes on
// in the same claude session: the model's next request carries the
// session's first prompt, the work it did, and the note.
func TestSteerContinuesTheClaudeSession(t *testing.T) {
	t.Parallel()
	const note = "also write goodbye.txt"
	srv := mockapi.New(t, mockapi.Claude,
		mockapi.WriteFile("half.txt", "half\n"),
		mockapi.Text("still thinking").After(2*time.Minute), // stopped by the note
		mockapi.WriteFile("hello.txt", "hello\n"), mockapi.Text(SuccessText))
	repo := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"config", "user.name", "t"}, {"config", "user.email", "t@example.com"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		require.NoError(t, cmd.Run())
	}
	require.NoError(t, os.WriteFile(filepath.Join(repo, "plan.md"), []byte(helloPlan), 0o644))
	for _, args := range [][]string{{"add", "-A"}, {"commit", "-q", "-m", "initial"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		require.NoError(t, cmd.Run())
	}
	pl, err := plan.Parse(filepath.Join(repo, "plan.md"), []byte(helloPlan))
	require.NoError(t, err)
	c := newClock()
	done := make(chan engine.Result, 1)
	go func() {
		res, err := engine.Run(context.Background(), engine.Config{Dir: repo, Plan: pl, CommitMode: "auto",
			Agents: []agent.Agent{cliAgent(t, "claude", srv)}, Grace: 2 * time.Second, PhaseTimeout: 3 * time.Minute,
			Now: c.now, Sleep: c.sleep, NoJitter: true, WaitLimit: schedule.DefaultWaitLimit, ReviewPoll: 20 * time.Millisecond})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	deadline := time.Now().Add(90 * time.Second)
	for len(srv.ModelRequests()) < 2 {
		require.True(t, time.Now().Before(deadline), "claude never asked its model a second time")
		time.Sleep(20 * time.Millisecond)
	}
	require.NoError(t, state.Open(repo).SaveSteer(state.Steer{PhaseID: "1", Note: note, Sent: time.Now()}))
	var res engine.Result
	select {
	case res = <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("the run did not end after the note")
	}
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	ps, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Equal(t, "1:claude:interrupted 1:claude:complete", agentsOf(ps))
	require.NotEmpty(t, ps.Attempts[0].Session)

	reqs := srv.ModelRequests()
	require.GreaterOrEqual(t, len(reqs), 3)
	after := string(reqs[2].Body)
	require.Contains(t, after, note, "the note reaches the model")
	require.Contains(t, after, "Create hello.txt containing the line hello", "in the session that holds the task")
	require.Contains(t, after, "half.txt", "with the work the session did")
	log, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(ps.Attempts[1].LogPath)))
	require.NoError(t, err)
	require.True(t, strings.Contains(string(log), "continuing claude session "+ps.Attempts[0].Session), "%s", log)
}
