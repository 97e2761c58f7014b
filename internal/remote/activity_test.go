package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// runActivity runs the worker's activity once in the SDK's activity test
// environment, with run as the attempt, against a bare remote holding the
// base.
func runActivity(t *testing.T, run Runner, edit func(*AttemptRequest)) (AttemptResult, error, string, string) {
	t.Helper()
	return runActivityOf(t, nil, run, edit)
}

// runActivityOf is runActivity with the worker set up by setup too.
func runActivityOf(t *testing.T, setup func(*Worker), run Runner, edit func(*AttemptRequest)) (AttemptResult, error, string, string) {
	t.Helper()
	user, remote, head := newRepos(t)
	req := AttemptRequest{Request: executor.Request{RunID: testRun, PhaseID: phaseid.ID("1"), Seq: 1, Base: head, Timeout: time.Minute},
		Remote: remote, BaseRef: BaseRef(testRun, "1", 1), ResultRef: ResultRef(testRun, "1", 1),
		TryRef: TryRef(ResultRef(testRun, "1", 1), 1, "wf")}
	if err := (Shared{Repo: user, Remote: remote, RunID: testRun}).PushBase(context.Background(), head, req.BaseRef); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(&req)
	}
	var s testsuite.WorkflowTestSuite
	s.SetLogger(log.NewStructuredLogger(slog.New(slog.DiscardHandler)))
	env := s.NewTestActivityEnvironment()
	w := &Worker{Dir: filepath.Join(t.TempDir(), "worker"), Identity: "w1@test", Run: run}
	if setup != nil {
		setup(w)
	}
	env.RegisterActivityWithOptions(w.Attempt, activity.RegisterOptions{Name: ActivityName})
	v, err := env.ExecuteActivity(ActivityName, req)
	var res AttemptResult
	if err == nil {
		if err := v.Get(&res); err != nil {
			t.Fatal(err)
		}
	}
	return res, err, remote, head
}

func writeFile(ws Workspace, name, text string) error {
	return os.WriteFile(filepath.Join(ws.Path, name), []byte(text), 0o644)
}

func TestWorkerActivityCommitsAndPushesTheWork(t *testing.T) {
	res, err, remote, head := runActivity(t, func(ctx context.Context, ws Workspace, req AttemptRequest, log io.Writer, p Reporter) AttemptResult {
		fmt.Fprintln(log, "agent says hello")
		p.Output("agent says hello")
		if err := writeFile(ws, "new.txt", "work\n"); err != nil {
			t.Error(err)
		}
		return AttemptResult{Result: executor.Result{Evidence: failure.Evidence{AgentRan: true}}}
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Commit == "" || res.Worker != "w1@test" || !strings.Contains(res.LogTail, "agent says hello") || res.Patch != "" {
		t.Fatalf("result %+v", res)
	}
	if want := TryRef(ResultRef(testRun, "1", 1), 1, "wf"); res.Ref != want {
		t.Fatalf("the result names the ref %q, want the try's %s", res.Ref, want)
	}
	refs := gitT(t, t.TempDir(), "ls-remote", remote, res.Ref)
	if !strings.HasPrefix(refs, res.Commit) {
		t.Fatalf("the remote's result ref: %q, want %s", refs, res.Commit)
	}
	if parent := gitT(t, remote, "rev-parse", res.Commit+"^"); parent != head {
		t.Errorf("parent %s, want %s", parent, head)
	}
}

// A failed attempt's work goes back as its commit and its patch.
func TestWorkerActivityReturnsAFailedAttemptsPatch(t *testing.T) {
	res, err, _, _ := runActivity(t, func(ctx context.Context, ws Workspace, req AttemptRequest, log io.Writer, p Reporter) AttemptResult {
		_ = writeFile(ws, "half.txt", "half done\n")
		return AttemptResult{Result: executor.Result{Evidence: failure.Evidence{AgentRan: true, AgentExitCode: 1}}}
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Commit == "" || !strings.Contains(res.Patch, "+half done") {
		t.Fatalf("result %+v", res)
	}
}

// A usage limit with its reset is the typed, non-retryable error, and the
// attempt's evidence travels with it.
func TestWorkerActivityFailsAUsageLimitTyped(t *testing.T) {
	reset := time.Date(2030, 1, 1, 5, 0, 0, 0, time.UTC)
	_, err, remote, _ := runActivity(t, func(ctx context.Context, ws Workspace, req AttemptRequest, log io.Writer, p Reporter) AttemptResult {
		_ = writeFile(ws, "half.txt", "half done when the limit hit\n")
		return AttemptResult{Result: executor.Result{Evidence: failure.Evidence{AgentRan: true, AgentExitCode: 1,
			AgentSignal: &failure.AgentSignal{Type: failreport.RateLimited, Message: "usage limit", ResetsAt: reset}}}}
	}, nil)
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != ErrTypeUsageLimit || !app.NonRetryable() {
		t.Fatalf("err = %v, want the typed usage limit", err)
	}
	l := limitOf(err)
	if l == nil || !l.ResetsAt.Equal(reset) || l.Result == nil || l.Result.Worker != "w1@test" {
		t.Fatalf("limit %+v", l)
	}
	// The work the agent made before the limit is pushed and goes back
	// with it, for the attempt after it to continue.
	if l.Result.Commit == "" || l.Result.Ref != TryRef(ResultRef(testRun, "1", 1), 1, "wf") {
		t.Fatalf("the limited attempt's work: commit %q, ref %q", l.Result.Commit, l.Result.Ref)
	}
	if got := gitT(t, remote, "show", l.Result.Commit+":half.txt"); got != "half done when the limit hit" {
		t.Errorf("the pushed work holds %q", got)
	}
}

// A worker that cannot fetch fails as setup, naming the remote; a request
// outside the run's refs is refused before anything runs.
func TestWorkerActivityMachineryErrors(t *testing.T) {
	ran := false
	run := func(ctx context.Context, ws Workspace, req AttemptRequest, log io.Writer, p Reporter) AttemptResult {
		ran = true
		return AttemptResult{}
	}
	missing := filepath.Join(t.TempDir(), "gone.git")
	_, err, _, _ := runActivity(t, run, func(r *AttemptRequest) { r.Remote = missing })
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != ErrTypeSetup || !strings.Contains(err.Error(), missing) {
		t.Fatalf("err = %v, want a setup error naming %s", err, missing)
	}
	_, err, _, _ = runActivity(t, run, func(r *AttemptRequest) { r.ResultRef = "refs/heads/main" })
	if !errors.As(err, &app) || app.Type() != ErrTypeBadRequest || !app.NonRetryable() {
		t.Fatalf("err = %v, want a bad request", err)
	}
	// A try's ref is always its own, under the attempt's result refs.
	for _, try := range []string{"", ResultRef(testRun, "1", 1), ResultRef(testRun, "1", 2) + "/1", ResultRef(testRun, "1", 1) + "/1/x"} {
		_, err, _, _ = runActivity(t, run, func(r *AttemptRequest) { r.TryRef = try })
		if !errors.As(err, &app) || app.Type() != ErrTypeBadRequest || !app.NonRetryable() {
			t.Fatalf("try ref %q: err = %v, want a bad request", try, err)
		}
	}
	if ran {
		t.Error("the runner ran for a request that failed before it")
	}
}
