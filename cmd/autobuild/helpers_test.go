package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/gittest"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// binary is the autobuild binary built once for the end-to-end tests.
var binary string

func TestMain(m *testing.M) {
	// Under nohup (SIGHUP ignored) every autobuild these tests start would
	// inherit the ignored SIGHUP and, as it should, go on through a hangup:
	// the tests of a hangup would wait for nothing. A handler here makes
	// the children start with SIGHUP's default again (exec resets caught
	// signals, not ignored ones).
	if signal.Ignored(syscall.SIGHUP) {
		signal.Notify(make(chan os.Signal, 1), syscall.SIGHUP)
	}
	dir, err := os.MkdirTemp("", "autobuild-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "autobuild")
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building autobuild:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is what one autobuild invocation did.
type result struct {
	stdout, stderr string
	code           int
}

func (r result) String() string {
	return fmt.Sprintf("exit %d\n--- stdout\n%s\n--- stderr\n%s", r.code, r.stdout, r.stderr)
}

// autobuild runs the binary in dir and waits for it.
func autobuild(t *testing.T, dir string, args ...string) result {
	t.Helper()
	return runCmd(t, command(dir, args...))
}

// runCmd runs cmd and waits for it; a non-zero exit is a result, not an
// error.
func runCmd(t *testing.T, cmd *exec.Cmd) result {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running %s: %v", cmd.Path, err)
	}
	return result{stdout: out.String(), stderr: errb.String(), code: code}
}

func command(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1",
		"GIT_AUTHOR_NAME=e2e", "GIT_AUTHOR_EMAIL=e2e@autobuild.invalid",
		"GIT_COMMITTER_NAME=e2e", "GIT_COMMITTER_EMAIL=e2e@autobuild.invalid")
	return cmd
}

// newRepo makes a git repository with one commit holding the plan.
func newRepo(t *testing.T, planText string) string {
	t.Helper()
	return gittest.New(t, gittest.WithIdentity("e2e", "e2e@autobuild.invalid"),
		gittest.File("README.md", "# test repo\n"), gittest.File("plan.md", planText))
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return gittest.Git(t, dir, args...)
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	gittest.WriteFile(t, path, content)
}

// agentScript writes an executable shell script outside the repository and
// returns its path: agents are real processes.
func agentScript(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "agent.sh")
	require.NoError(t, os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755))
	return path
}

func loadPhase(t *testing.T, repo, id string) *state.Phase {
	t.Helper()
	p, err := state.Open(repo).LoadPhase(phaseid.ID(id))
	require.NoError(t, err)
	return p
}

func loadRun(t *testing.T, repo string) *state.Run {
	t.Helper()
	r, err := state.Open(repo).LoadRun()
	require.NoError(t, err)
	return r
}

// phaseCommits counts the commits on HEAD carrying each phase's trailer.
func phaseCommits(t *testing.T, repo string) map[string]int {
	t.Helper()
	out := git(t, repo, "log", "--format=%(trailers:key=Autobuild-Phase,valueonly)")
	counts := map[string]int{}
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			counts[l]++
		}
	}
	return counts
}

func waitFor(t *testing.T, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func jsonValid(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var v any
	require.NoError(t, json.Unmarshal(b, &v), "%s is torn: %s", path, b)
}

// waitForBothChildren waits until the agents of the two parallel phases 1A
// and 1B have started their background children (sleepyAgent and kin
// write <phase>.child).
func waitForBothChildren(t *testing.T, pids string) {
	t.Helper()
	// The shell creates a pid file before it writes the pid: wait for the
	// content, not the file.
	written := func(name string) bool {
		b, err := os.ReadFile(filepath.Join(pids, name))
		return err == nil && strings.HasSuffix(string(b), "\n")
	}
	waitFor(t, "both agents to start their children", 20*time.Second, func() bool {
		return written("1a.pid") && written("1a.child") && written("1b.pid") && written("1b.child")
	})
}

// requireEveryPhasesWork checks that each phase of fivePhases left its
// src/<id>/work.txt, as workingAgent writes it, in the work tree.
func requireEveryPhasesWork(t *testing.T, repo string) {
	t.Helper()
	for _, id := range []string{"0", "1", "2a", "2b", "3"} {
		b, err := os.ReadFile(filepath.Join(repo, "src", id, "work.txt"))
		require.NoError(t, err, "phase %s's work reached the work tree", id)
		require.Equal(t, "phase "+id+"\n", string(b))
	}
}
