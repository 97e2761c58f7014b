package remote

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/temporaltest"
)

// serve runs a worker with run as its runner until the test ends.
func serve(t *testing.T, addr, queue, name string, run Runner) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	w := &Worker{Dir: filepath.Join(t.TempDir(), name), Identity: name, Run: run, HeartbeatEvery: 200 * time.Millisecond}
	go func() { done <- Serve(ctx, Conn{Address: addr, TaskQueue: queue}, w, 2, time.Second) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("worker %s: %v", name, err)
		}
	})
}

// Against a real server: the coordinator sends an attempt, a worker makes
// it, the commit comes back into the user's repository; asking again for
// the same attempt re-attaches (nothing runs twice); the end deletes the
// run's refs.
func TestCoordinatorAndWorkerThroughAServer(t *testing.T) {
	addr := temporaltest.Start(t)
	ctx := context.Background()
	user, remote, head := newRepos(t)
	queue := "q-" + t.Name()
	var runs atomic.Int32
	serve(t, addr, queue, "w1", func(ctx context.Context, ws Workspace, req AttemptRequest, log io.Writer, p Reporter) AttemptResult {
		runs.Add(1)
		p.Output("working")
		time.Sleep(500 * time.Millisecond)
		_ = os.WriteFile(filepath.Join(ws.Path, "made.txt"), []byte("made on a worker\n"), 0o644)
		fmt.Fprintln(log, "done")
		return AttemptResult{Result: executor.Result{Evidence: failure.Evidence{AgentRan: true}}}
	})
	run := "r" + fmt.Sprint(time.Now().UnixNano())
	k, err := NewCoordinator(ctx, Conn{Address: addr, TaskQueue: queue}, Shared{Repo: user, Remote: remote, RunID: run}, "coord")
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	req := AttemptRequest{Request: executor.Request{RunID: run, PhaseID: phaseid.ID("1"), DisplayID: "1", Number: 1, Seq: 1,
		Base: head, Timeout: time.Minute}, Remote: remote, BaseRef: BaseRef(run, "1", 1), ResultRef: ResultRef(run, "1", 1)}
	var seen atomic.Value
	res, err := k.Attempt(ctx, req, func(p Progress) { seen.Store(p.Worker) })
	if err != nil {
		t.Fatal(err)
	}
	if res.Commit == "" || res.Worker != "w1" || !strings.Contains(res.LogTail, "done") {
		t.Fatalf("result %+v", res)
	}
	if got := gitT(t, user, "show", res.Commit+":made.txt"); got != "made on a worker" {
		t.Fatalf("the commit in the user's repository holds %q", got)
	}
	// The try pushed to its own ref, which the coordinator fetched.
	if err := CheckTryRef(run, req.ResultRef, res.Ref); err != nil {
		t.Fatalf("the result's ref: %v", err)
	}
	if got := gitT(t, user, "rev-parse", res.Ref); got != res.Commit {
		t.Fatalf("%s holds %s here, want %s", res.Ref, got, res.Commit)
	}
	if keys, err := k.Unclaimed(ctx, "1"); err != nil || len(keys) != 0 {
		t.Fatalf("unclaimed after the result: %v, %v", keys, err)
	}
	if keys, err := k.Leftover(ctx, "1"); err != nil || len(keys) != 0 {
		t.Fatalf("left over after the result: %v, %v", keys, err)
	}
	// The same attempt again (a resumed coordinator): its result, not a
	// second run.
	again, err := k.Reattach(ctx, req.Key(), req, nil)
	if err != nil || again.Commit != res.Commit || runs.Load() != 1 {
		t.Fatalf("re-attached: %+v, %v; the runner ran %d times", again, err, runs.Load())
	}
	// A second phase from the same base: no second push, the first ref
	// serves.
	req2 := req
	req2.PhaseID, req2.DisplayID = "2", "2"
	req2.BaseRef, req2.ResultRef = BaseRef(run, "2", 1), ResultRef(run, "2", 1)
	res2, err := k.Attempt(ctx, req2, nil)
	if err != nil || res2.Commit == "" {
		t.Fatalf("second phase: %+v, %v", res2, err)
	}
	if refs := gitT(t, user, "ls-remote", remote, BaseRef(run, "2", 1)); refs != "" {
		t.Fatalf("the shared base was pushed again: %s", refs)
	}
	if err := k.Finish(ctx); err != nil {
		t.Fatal(err)
	}
	if refs := gitT(t, user, "ls-remote", remote); refs != "" {
		t.Fatalf("refs left on the remote: %s", refs)
	}
	if refs := gitT(t, user, "for-each-ref", RunRefPrefix(run)); refs != "" {
		t.Fatalf("fetched refs left here: %s", refs)
	}
}
