package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agenttest"
	"github.com/autobuild-sh/autobuild/internal/agenttest/mockapi"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// These tests run autobuild with the real agent CLIs (installed by
// scripts/install-agent-clis.sh; skipped when absent) against the scripted
// mock model servers of internal/agenttest/mockapi on 127.0.0.1. The CLIs'
// own retries are turned down, so every case takes seconds.

// realPlan is one phase whose gate passes only when hello.txt says hello.
const realPlan = "# Hello\n\n| Phase | Name | Depends On |\n|---|---|---|\n| 1 | Hello | - |\n\n" +
	"## Phase 1: Hello\n\n- [ ] create hello.txt saying hello\n\n" +
	"## Quality Gates\n\n- test: `grep -qx hello hello.txt`\n"

// realRun is one autobuild run with a real agent CLI against a mock.
type realRun struct {
	repo string
	srv  *mockapi.Server
	res  result
	took time.Duration
}

// realCommand is autobuild on plan with the preset for api, in a new
// repository, its CLI pointed at srv: agenttest.Env's environment, in which
// nothing but the mock is reachable and no real login is read.
func realCommand(t *testing.T, api mockapi.API, srv *mockapi.Server, opts agenttest.Options, plan string) (*exec.Cmd, string) {
	t.Helper()
	repo := newRepo(t, plan)
	cmd := exec.Command(binary, "plan.md", "--no-tui", "--commit=auto", "--phase-timeout", "2m", "--agent", string(api))
	cmd.Dir = repo
	cmd.Env = append(agenttest.Env(t, srv, opts),
		"GIT_AUTHOR_NAME=e2e", "GIT_AUTHOR_EMAIL=e2e@autobuild.invalid",
		"GIT_COMMITTER_NAME=e2e", "GIT_COMMITTER_EMAIL=e2e@autobuild.invalid")
	return cmd, repo
}

// runRealCLI runs autobuild on plan to its end, the mock answering with replies.
func runRealCLI(t *testing.T, api mockapi.API, opts agenttest.Options, plan string, replies ...mockapi.Reply) realRun {
	t.Helper()
	requireRealCLI(t, api)
	srv := mockapi.New(t, api, replies...)
	cmd, repo := realCommand(t, api, srv, opts, plan)
	start := time.Now()
	res := runCmd(t, cmd)
	rr := realRun{repo: repo, srv: srv, res: res, took: time.Since(start)}
	t.Logf("%s: exit %d in %.1f s, %d model requests", t.Name(), res.code, rr.took.Seconds(), len(srv.ModelRequests()))
	return rr
}

// requireRealCLI skips the test when the CLI is not installed, or in -short mode.
func requireRealCLI(t *testing.T, api mockapi.API) {
	t.Helper()
	if testing.Short() {
		t.Skip("the real agent CLIs are end-to-end tests: skipped with -short")
	}
	agenttest.Require(t, string(api))
}

// describe is the run's output, phase state and attempt logs, for failure messages.
func (rr realRun) describe() string {
	var b strings.Builder
	b.WriteString(rr.res.String())
	if p, err := state.Open(rr.repo).LoadPhase("1"); err == nil {
		fmt.Fprintf(&b, "\n--- phase: status %s, attempt %d", p.Status, p.Attempt)
		if p.Error != nil {
			fmt.Fprintf(&b, ", error %s: %s", p.Error.Type, p.Error.Message)
		}
	}
	logs, _ := filepath.Glob(filepath.Join(rr.repo, ".autobuild", "logs", "phase-1.attempt-*.log"))
	for _, l := range logs {
		data, _ := os.ReadFile(l)
		fmt.Fprintf(&b, "\n--- %s\n%s", filepath.Base(l), data)
	}
	return b.String()
}

// requireNotCommitted checks that the phase's work did not land.
func requireNotCommitted(t *testing.T, repo, why string) {
	t.Helper()
	require.Zero(t, phaseCommits(t, repo)["1"], "a failed phase must never be committed as complete\n%s", why)
	require.Equal(t, "initial", git(t, repo, "log", "-1", "--format=%s"), why)
	p, err := state.Open(repo).LoadPhase("1")
	if err == nil {
		require.NotEqual(t, state.PhaseComplete, p.Status, why)
	}
}

// A phase done by the real CLI is committed, its tool call was shown live
// and its usage reached the summary.
func TestRealCLIPhaseCompletesAndIsCommitted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		api  mockapi.API
		tool string
	}{
		{mockapi.Claude, "→ Write hello.txt"},
		{mockapi.Codex, "→ Bash mkdir -p . && printf"},
		{mockapi.Gemini, "→ Write hello.txt"},
	} {
		t.Run(string(tc.api), func(t *testing.T) {
			t.Parallel()
			rr := runRealCLI(t, tc.api, agenttest.Options{Sandbox: true}, realPlan,
				mockapi.WriteFile("hello.txt", "hello\n"), mockapi.Text(agenttest.SuccessText))
			require.Equal(t, 0, rr.res.code, rr.describe())
			require.Equal(t, 1, phaseCommits(t, rr.repo)["1"], rr.describe())
			require.Equal(t, "hello", git(t, rr.repo, "show", "HEAD:hello.txt"))
			require.Equal(t, "feat(hello): add hello.txt", git(t, rr.repo, "log", "-1", "--format=%s"))
			require.Equal(t, state.PhaseComplete, loadPhase(t, rr.repo, "1").Status)
			reqs := rr.srv.ModelRequests()
			require.Len(t, reqs, 2, "one turn to write the file, one to finish")
			require.False(t, reqs[0].ToolResult())
			require.True(t, reqs[1].ToolResult(), "the CLI ran the tool and sent its result back")
			require.Equal(t, reqs[0].Session(), reqs[1].Session(), "one session for the attempt")
			require.Contains(t, rr.res.stdout, tc.tool, "the tool call is shown as it happens")
			require.Contains(t, rr.res.stdout, "Usage: 2", "the summary shows the tokens the mock reported")
		})
	}
}

// No failure of the real CLI is committed, each is classified as what it
// is, and a refused key halts at once without spending the retry.
func tooLong(n int) []mockapi.Reply {
	out := make([]mockapi.Reply, n)
	for i := range out {
		out[i] = mockapi.Fail(mockapi.PromptTooLong)
	}
	return out
}

func TestRealCLIFailuresAreNeverCommitted(t *testing.T) {
	t.Parallel()
	twice := func(rs ...mockapi.Reply) []mockapi.Reply { return append(append([]mockapi.Reply(nil), rs...), rs...) }
	cases := []struct {
		name     string
		replies  []mockapi.Reply
		want     failreport.Type
		attempts int
		requests int
	}{
		// A refused key is the agent's setup: no retry, one request. (A 403 is
		// read the same way; the parsers' tests cover it from the fixtures.)
		{"auth_401", twice(mockapi.Fail(mockapi.Unauthorized)), failreport.AgentSetup, 1, 1},
		// The retry continues claude's and codex's session (codex compacts
		// it first, a request of its own): requests vary, 0 below.
		// (Enough replies: a mock out of replies answers 500, which codex
		// words as "high demand", a rate limit to back off.)
		{"prompt_too_long", tooLong(12), failreport.ContextExhausted, 2, 0},
		// The file is written and the gate would pass, but the agent never
		// said it was done.
		{"no_result", twice(mockapi.WriteFile("hello.txt", "hello\n"), mockapi.Text("I created hello.txt.")), failreport.ParseError, 2, 4},
	}
	for _, api := range mockapi.APIs() {
		for _, c := range cases {
			t.Run(string(api)+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				rr := runRealCLI(t, api, agenttest.Options{Sandbox: true}, realPlan, c.replies...)
				require.Equal(t, 1, rr.res.code, rr.describe())
				requireNotCommitted(t, rr.repo, rr.describe())
				p := loadPhase(t, rr.repo, "1")
				require.NotNil(t, p.Error, rr.describe())
				t.Logf("CLASSIFIED %s %s: %s after %d attempt(s) in %.1f s: %s", api, c.name, p.Error.Type, p.Attempt, rr.took.Seconds(), p.Error.Message)
				require.Equal(t, c.want, p.Error.Type, rr.describe())
				require.Equal(t, c.attempts, p.Attempt, rr.describe())
				reqs := rr.srv.ModelRequests()
				if c.requests > 0 {
					require.Len(t, reqs, c.requests, rr.describe())
				} else {
					require.GreaterOrEqual(t, len(reqs), 2, rr.describe())
				}
				switch {
				case c.attempts == 2 && c.want == failreport.ContextExhausted && api != mockapi.Gemini:
					// The retry continues the CLI's session: it ran out of context.
					require.Equal(t, reqs[0].Session(), reqs[len(reqs)-1].Session())
				case c.attempts == 2 && api != mockapi.Gemini:
					// The retry is a new session of the CLI (the prompt carries the failure).
					require.NotEqual(t, reqs[0].Session(), reqs[len(reqs)-1].Session())
				}
				if c.want == failreport.AgentSetup {
					require.False(t, p.Error.Retryable)
					require.Contains(t, rr.res.stdout, "not retryable", rr.describe())
				}
			})
		}
	}
}

// A 429 or an overloaded API is rate_limited: autobuild waits and tries the
// attempt again without spending the retry. The test stops the run with
// Ctrl-C during the wait (it is 30 s): nothing is committed.
func TestRealCLIRateLimitedWaitsAndCommitsNothing(t *testing.T) {
	t.Parallel()
	for _, api := range mockapi.APIs() {
		for _, f := range []mockapi.Failure{mockapi.RateLimited, mockapi.Overloaded} {
			t.Run(string(api)+"/"+string(f), func(t *testing.T) {
				t.Parallel()
				requireRealCLI(t, api)
				srv := mockapi.New(t, api, mockapi.Fail(f), mockapi.Fail(f))
				cmd, repo := realCommand(t, api, srv, agenttest.Options{Sandbox: true}, realPlan)
				out := startWatched(t, cmd)
				start := time.Now()
				line := out.waitForLine(t, "rate limited: trying again in", time.Minute)
				took := time.Since(start)
				require.NoError(t, cmd.Process.Signal(os.Interrupt))
				res := out.wait(t, cmd)
				t.Logf("CLASSIFIED %s %s: rate_limited after %.1f s (%s), exit %d after Ctrl-C", api, f, took.Seconds(), strings.TrimSpace(line), res.code)
				require.Len(t, srv.ModelRequests(), 1, "one attempt so far, the CLI's own retries turned down")
				requireNotCommitted(t, repo, res.String())
				require.NotEqual(t, 0, res.code, res.String())
			})
		}
	}
}

// codex's prompt holds autobuild's example result object (and here the plan
// holds one too). It is never read as codex's result: a failed codex run is
// not committed as "feat(scope): what this phase adds".
func TestRealCodexPromptExampleIsNotItsResult(t *testing.T) {
	t.Parallel()
	plan := strings.Replace(realPlan, "- [ ] create hello.txt saying hello\n",
		"- [ ] create hello.txt saying hello\n\nWhen done, report:\n\n```json\n"+agenttest.ExampleResultJSON+"\n```\n", 1)
	for _, c := range []struct {
		name    string
		replies []mockapi.Reply
		want    failreport.Type
	}{
		{"auth_401", []mockapi.Reply{mockapi.Fail(mockapi.Unauthorized), mockapi.Fail(mockapi.Unauthorized)}, failreport.AgentSetup},
		{"no_result", []mockapi.Reply{mockapi.WriteFile("hello.txt", "hello\n"), mockapi.Text("Done."),
			mockapi.WriteFile("hello.txt", "hello\n"), mockapi.Text("Done.")}, failreport.ParseError},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rr := runRealCLI(t, mockapi.Codex, agenttest.Options{}, plan, c.replies...)
			prompt := readString(t, filepath.Join(rr.repo, ".autobuild", "prompts", "phase-1.attempt-1.md"))
			require.Contains(t, prompt, `"commit_message": "feat(scope): what this phase adds"`, "the prompt holds a result example")
			require.Equal(t, 1, rr.res.code, rr.describe())
			requireNotCommitted(t, rr.repo, rr.describe())
			require.NotContains(t, git(t, rr.repo, "log", "--all", "--format=%s"), "what this phase adds")
			p := loadPhase(t, rr.repo, "1")
			require.Equal(t, c.want, p.Error.Type, rr.describe())
			t.Logf("CLASSIFIED codex prompt_echo %s: %s after %d attempt(s) in %.1f s", c.name, p.Error.Type, p.Attempt, rr.took.Seconds())
		})
	}
}

// A CLI that is not logged in, or claude as root without IS_SANDBOX=1, is
// refused before anything runs: exit 3 with the fix, no state written, no
// request made.
func TestRealCLIRefusedBeforeStart(t *testing.T) {
	t.Parallel()
	type tc struct {
		name string
		api  mockapi.API
		opts agenttest.Options
		want string
	}
	cases := []tc{
		{"claude/not_logged_in", mockapi.Claude, agenttest.Options{NoAuth: true, Sandbox: true}, "ANTHROPIC_API_KEY"},
		// codex's own provider (the mock) names its key variable, which is unset.
		{"codex/not_logged_in", mockapi.Codex, agenttest.Options{NoAuth: true}, agenttest.MockKeyVar},
		{"gemini/not_logged_in", mockapi.Gemini, agenttest.Options{NoAuth: true}, "GEMINI_API_KEY"},
	}
	if os.Geteuid() == 0 {
		cases = append(cases, tc{"claude/root", mockapi.Claude, agenttest.Options{}, "IS_SANDBOX=1"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rr := runRealCLI(t, c.api, c.opts, realPlan, mockapi.WriteFile("hello.txt", "hello\n"), mockapi.Text(agenttest.SuccessText))
			t.Logf("REFUSED %s: exit %d in %.2f s: %s", c.name, rr.res.code, rr.took.Seconds(), rr.res.stderr)
			require.Equal(t, 3, rr.res.code, rr.describe())
			require.Contains(t, rr.res.stderr, "fix: ", rr.describe())
			require.Contains(t, rr.res.stderr, c.want, rr.describe())
			require.NoDirExists(t, filepath.Join(rr.repo, ".autobuild"))
			require.Empty(t, rr.srv.Requests(), "refused before the CLI ever ran")
		})
	}
}

// watched is a running command's output, read as it comes.
type watched struct {
	mu       sync.Mutex // guards out
	out      bytes.Buffer
	stderr   bytes.Buffer
	done     chan struct{}
	lastLine chan string
}

// startWatched starts cmd with its stdout read line by line.
func startWatched(t *testing.T, cmd *exec.Cmd) *watched {
	t.Helper()
	w := &watched{done: make(chan struct{})}
	pipe, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = &w.stderr
	require.NoError(t, cmd.Start())
	go func() {
		defer close(w.done)
		r := bufio.NewReader(pipe)
		for {
			line, err := r.ReadString('\n')
			w.mu.Lock()
			w.out.WriteString(line)
			w.mu.Unlock()
			if err != nil {
				_, _ = io.Copy(io.Discard, r)
				return
			}
		}
	}()
	return w
}

// waitForLine waits until a line of stdout contains want and returns it.
func (w *watched) waitForLine(t *testing.T, want string, timeout time.Duration) string {
	t.Helper()
	var found string
	waitFor(t, fmt.Sprintf("a line with %q", want), timeout, func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		for _, l := range strings.Split(w.out.String(), "\n") {
			if strings.Contains(l, want) {
				found = l
				return true
			}
		}
		select {
		case <-w.done:
			t.Fatalf("autobuild ended without a line with %q:\n%s\n%s", want, w.out.String(), w.stderr.String())
		default:
		}
		return false
	})
	return found
}

// wait waits for the command to end and returns what it did.
func (w *watched) wait(t *testing.T, cmd *exec.Cmd) result {
	t.Helper()
	select {
	case <-w.done:
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		t.Fatal("autobuild did not end within a minute of Ctrl-C")
	}
	err := cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return result{stdout: w.out.String(), stderr: w.stderr.String(), code: code}
}

// With the CLIs' own retries at their defaults, a refused key still halts
// at once: autobuild stops claude at its first retry of the 401 (it would
// retry ten times, for minutes), and none of them gets autobuild's retry.
func TestRealCLIRefusedKeyHaltsWithoutTheCLIsOwnRetries(t *testing.T) {
	t.Parallel()
	for _, api := range mockapi.APIs() {
		t.Run(string(api), func(t *testing.T) {
			t.Parallel()
			replies := make([]mockapi.Reply, 12)
			for i := range replies {
				replies[i] = mockapi.Fail(mockapi.Unauthorized)
			}
			rr := runRealCLI(t, api, agenttest.Options{Sandbox: true, DefaultRetries: true}, realPlan, replies...)
			require.Equal(t, 1, rr.res.code, rr.describe())
			requireNotCommitted(t, rr.repo, rr.describe())
			p := loadPhase(t, rr.repo, "1")
			t.Logf("CLASSIFIED %s auth_401 (default retries): %s after %d attempt(s) in %.1f s, %d model requests", api, p.Error.Type, p.Attempt, rr.took.Seconds(), len(rr.srv.ModelRequests()))
			require.Equal(t, failreport.AgentSetup, p.Error.Type, rr.describe())
			require.Equal(t, 1, p.Attempt, rr.describe())
			require.Less(t, len(rr.srv.ModelRequests()), 11, "claude's ten retries of the 401 are cut short")
		})
	}
}

// --idle-timeout counts the CLI's stream events: an agent that keeps calling
// tools, each after a pause shorter than the limit, is never idle-killed,
// although the whole attempt takes longer than the limit; one that stays
// silent past the limit is stopped as a timeout.
func TestRealCLIIdleTimeoutCountsStreamEvents(t *testing.T) {
	t.Parallel()
	const idle, pause = 4 * time.Second, 1500 * time.Millisecond
	for _, api := range []mockapi.API{mockapi.Claude, mockapi.Codex} {
		t.Run(string(api)+"/working", func(t *testing.T) {
			t.Parallel()
			requireRealCLI(t, api)
			srv := mockapi.New(t, api,
				mockapi.WriteFile("a.txt", "a\n").After(pause), mockapi.WriteFile("b.txt", "b\n").After(pause),
				mockapi.WriteFile("hello.txt", "hello\n").After(pause),
				mockapi.Text(agenttest.SuccessText).After(pause))
			cmd, repo := realCommand(t, api, srv, agenttest.Options{Sandbox: true}, realPlan)
			cmd.Args = append(cmd.Args, "--idle-timeout", idle.String())
			start := time.Now()
			res := runCmd(t, cmd)
			rr := realRun{repo: repo, srv: srv, res: res, took: time.Since(start)}
			t.Logf("IDLE %s working: exit %d in %.1f s with --idle-timeout %s", api, res.code, rr.took.Seconds(), idle)
			require.Equal(t, 0, res.code, rr.describe())
			require.Greater(t, rr.took, idle, "the attempt outlasted the idle limit")
			require.Equal(t, 1, phaseCommits(t, repo)["1"])
		})
		t.Run(string(api)+"/silent", func(t *testing.T) {
			t.Parallel()
			requireRealCLI(t, api)
			srv := mockapi.New(t, api, mockapi.Text(agenttest.SuccessText).After(idle+10*time.Second), mockapi.Text(agenttest.SuccessText).After(idle+10*time.Second))
			cmd, repo := realCommand(t, api, srv, agenttest.Options{Sandbox: true}, realPlan)
			cmd.Args = append(cmd.Args, "--idle-timeout", idle.String())
			out := startWatched(t, cmd)
			out.waitForLine(t, "PHASE 1 FAILED - timeout", time.Minute)
			require.NoError(t, cmd.Process.Signal(os.Interrupt))
			res := out.wait(t, cmd)
			requireNotCommitted(t, repo, res.String())
		})
	}
}
