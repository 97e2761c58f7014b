package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/state"
)

// The review in the terminal UI, as a person does it: v opens the phase
// awaiting review, x rejects it with a note (which reaches the retry's
// prompt), o opens a shell in the worktree where the person changes a
// file, the gates run again on it, and a approves the new change, which
// lands.
func TestTUIReviewRejectShellApprove(t *testing.T) {
	t.Parallel()
	plan := strings.Replace(reviewPlan, "- test: `true`", "- test: `test -f greet.txt`", 1)
	repo := newRepo(t, plan)
	shell := filepath.Join(t.TempDir(), "shell.sh")
	require.NoError(t, os.WriteFile(shell, []byte("#!/bin/sh\necho 'edited by hand' >> greet.txt\n"), 0o755))
	tm := startInPtyEnv(t, repo, []string{"SHELL=" + shell},
		"plan.md", "--commit=auto", "--agent", "sim", "--scenario", reviewScenario(t), "--review=phase")

	mark := tm.waitText("awaiting review: v to review", 0, 60*time.Second)
	tm.send("v")
	tm.waitText("+hello", mark, 10*time.Second)
	mark = tm.waitText("Review · Phase 1: Greet", mark, 10*time.Second)
	tm.send("x")
	mark = tm.waitText("Note for the retry:", mark, 10*time.Second)
	tm.send("say hello twice")
	tm.send("\r")
	mark = tm.waitText("rejected: its retry starts with your note", mark, 10*time.Second)

	awaitReview(t, repo, "1", 2)
	prompt, err := os.ReadFile(state.Open(repo).PromptPath("1", 2))
	require.NoError(t, err)
	require.Contains(t, string(prompt), "say hello twice")

	mark = tm.waitText("awaiting review", mark, 30*time.Second)
	tm.send("v")
	mark = tm.waitText("Review · Phase 1: Greet", mark, 10*time.Second)
	first := loadPhase(t, repo, "1").Review.Tree
	tm.send("o")
	mark = tm.waitText("Checking the gates again", mark, 30*time.Second)
	waitFor(t, "the gates to pass on the change", 30*time.Second, func() bool {
		p := loadPhase(t, repo, "1")
		return p.Status == state.PhaseAwaitingReview && p.Review != nil && p.Review.Tree != first
	})
	mark = tm.waitText("awaiting review", mark, 30*time.Second)
	tm.send("v")
	mark = tm.waitText("+edited by hand", mark, 10*time.Second)
	tm.send("a")
	tm.waitText("AUTOBUILD COMPLETE", mark, 60*time.Second)
	tm.send("q")
	require.Equal(t, 0, tm.exitCode(30*time.Second))
	require.Equal(t, "hello\nedited by hand", git(t, repo, "show", "HEAD:greet.txt"))
}
