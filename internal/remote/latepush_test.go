package remote

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"

	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/temporaltest"
)

// Against a real server: a worker that went silent (taken for dead after
// the heartbeat timeout; its attempt made again on another worker, whose
// result lands, and the run ended and deleted its refs) and whose push
// then lands late pushes only to its own try's ref, hears from the server
// that the attempt is no longer its own, and deletes that ref: the run
// took the other try's result, and no ref is left on the remote.
func TestALatePushAfterTheRunIsTakenBack(t *testing.T) {
	addr := temporaltest.Start(t)
	ctx := context.Background()
	user, remote, head := newRepos(t)
	queue := "q-" + t.Name()
	cl, err := Dial(ctx, Conn{Address: addr, TaskQueue: queue}.WithDefaults(), "test")
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()

	started, release := make(chan struct{}), make(chan struct{})
	afterPush := make(chan error, 1)
	var asked atomic.Int32
	silent := &Worker{Dir: filepath.Join(t.TempDir(), "silent"), Identity: "silent",
		// One heartbeat as it starts, then silence: the server takes it
		// for dead.
		HeartbeatEvery: time.Hour,
		Run: func(ctx context.Context, ws Workspace, req AttemptRequest, log io.Writer, p Reporter) AttemptResult {
			close(started)
			<-release
			_ = os.WriteFile(filepath.Join(ws.Path, "made.txt"), []byte("late\n"), 0o644)
			return AttemptResult{Result: executor.Result{Evidence: failure.Evidence{AgentRan: true}}}
		},
		Confirm: func(ctx context.Context, details any) error {
			if asked.Add(1) == 1 {
				return nil // it asked just before its push hung
			}
			err := cl.RecordActivityHeartbeat(ctx, activity.GetInfo(ctx).TaskToken, details)
			afterPush <- err
			return err
		}}
	wctx, stopSilent := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- Serve(wctx, Conn{Address: addr, TaskQueue: queue}, silent, 1, time.Second) }()
	defer func() { stopSilent(); <-done }()

	run := "r" + strings.ReplaceAll(time.Now().Format("150405.000000000"), ".", "")
	k, err := NewCoordinator(ctx, Conn{Address: addr, TaskQueue: queue}, Shared{Repo: user, Remote: remote, RunID: run}, "coord")
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	req := AttemptRequest{Request: executor.Request{RunID: run, PhaseID: phaseid.ID("1"), DisplayID: "1", Number: 1, Seq: 1,
		Base: head, Timeout: time.Minute}, Remote: remote, BaseRef: BaseRef(run, "1", 1), ResultRef: ResultRef(run, "1", 1),
		HeartbeatTimeout: 2 * time.Second}
	type outcome struct {
		res AttemptResult
		err error
	}
	got := make(chan outcome, 1)
	go func() {
		res, err := k.Attempt(ctx, req, nil)
		got <- outcome{res, err}
	}()
	select {
	case <-started:
	case <-time.After(60 * time.Second):
		t.Fatal("the silent worker never took the attempt")
	}
	serve(t, addr, queue, "w2", func(ctx context.Context, ws Workspace, req AttemptRequest, log io.Writer, p Reporter) AttemptResult {
		_ = os.WriteFile(filepath.Join(ws.Path, "made.txt"), []byte("on time\n"), 0o644)
		return AttemptResult{Result: executor.Result{Evidence: failure.Evidence{AgentRan: true}}}
	})
	var o outcome
	select {
	case o = <-got:
	case <-time.After(90 * time.Second):
		t.Fatal("the attempt was not made again on w2")
	}
	if o.err != nil || o.res.Worker != "w2" || o.res.Tries != 2 {
		t.Fatalf("result %+v, %v", o.res, o.err)
	}
	if text := gitT(t, user, "show", o.res.Commit+":made.txt"); text != "on time" {
		t.Fatalf("the run took %q", text)
	}
	if err := k.Finish(ctx); err != nil {
		t.Fatal(err)
	}

	close(release)
	select {
	case err := <-afterPush:
		if !gone(err) {
			t.Fatalf("the server's answer after the late push: %v, want the attempt gone", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the silent worker never asked after its push")
	}
	waitFor := time.Now().Add(20 * time.Second)
	for {
		refs := gitT(t, user, "ls-remote", remote)
		if refs == "" {
			break
		}
		if time.Now().After(waitFor) {
			t.Fatalf("refs left on the remote after the late push:\n%s", refs)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if asked.Load() != 2 {
		t.Errorf("the silent worker asked %d times, want once before and once after its push", asked.Load())
	}
}
