package remote

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/temporal"

	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/failure"
)

// answers is a Confirm that gives its errors in turn, then nil.
type answers struct {
	mu    sync.Mutex
	errs  []error
	asked int
}

func (a *answers) confirm(ctx context.Context, details any) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked++
	if len(a.errs) == 0 {
		return nil
	}
	err := a.errs[0]
	a.errs = a.errs[1:]
	return err
}

// workingRun is an attempt whose agent writes a file.
func workingRun(ctx context.Context, ws Workspace, req AttemptRequest, log io.Writer, p Reporter) AttemptResult {
	_ = writeFile(ws, "new.txt", "work\n")
	return AttemptResult{Result: executor.Result{Evidence: failure.Evidence{AgentRan: true}}}
}

// Before it pushes, a worker makes sure the attempt is still its own: a
// server it cannot reach is asked again until it answers; an attempt the
// server timed out (the worker was cut off, the attempt made again
// elsewhere) is not pushed; a canceled one comes back interrupted.
func TestWorkerPushesOnlyAnAttemptStillItsOwn(t *testing.T) {
	t.Parallel()
	unavailable := serviceerror.NewUnavailable("cut off")
	cases := []struct {
		name   string
		errs   []error
		pushed bool
		asked  int
		check  func(t *testing.T, res AttemptResult, err error)
	}{
		{"the server answers", nil, true, 2, func(t *testing.T, res AttemptResult, err error) {
			if err != nil || res.Commit == "" {
				t.Fatalf("res %+v, err %v", res, err)
			}
		}},
		{"the server is out of reach, then answers", []error{unavailable, context.DeadlineExceeded, unavailable}, true, 5,
			func(t *testing.T, res AttemptResult, err error) {
				if err != nil || res.Commit == "" {
					t.Fatalf("res %+v, err %v", res, err)
				}
			}},
		{"the attempt timed out on the server", []error{unavailable, serviceerror.NewNotFound("activity already timed out")}, false, 2,
			func(t *testing.T, res AttemptResult, err error) {
				if err == nil || !strings.Contains(err.Error(), "did not push") || !strings.Contains(err.Error(), "made again elsewhere") {
					t.Fatalf("err %v", err)
				}
			}},
		{"the server lost the attempt's namespace", []error{serviceerror.NewNamespaceNotFound("01a21b63")}, false, 1,
			func(t *testing.T, res AttemptResult, err error) {
				if err == nil || !strings.Contains(err.Error(), "did not push") {
					t.Fatalf("err %v", err)
				}
			}},
		{"the attempt was canceled", []error{temporal.NewCanceledError()}, false, 1,
			func(t *testing.T, res AttemptResult, err error) {
				if err != nil || !res.Interrupted || res.Commit != "" {
					t.Fatalf("res %+v, err %v", res, err)
				}
			}},
		// The push hung longer than the heartbeat timeout and landed after
		// the attempt was made again elsewhere, or after the run ended and
		// deleted its refs: the worker deletes its try's ref again.
		{"the attempt timed out while the push hung", []error{nil, serviceerror.NewNotFound("activity already timed out")}, false, 2,
			func(t *testing.T, res AttemptResult, err error) {
				if err == nil || !strings.Contains(err.Error(), "took its push back") || !strings.Contains(err.Error(), "is deleted") {
					t.Fatalf("res %+v, err %v", res, err)
				}
			}},
		{"the server is out of reach after the push", []error{nil, unavailable}, true, 2,
			func(t *testing.T, res AttemptResult, err error) {
				if err != nil || res.Commit == "" || res.Ref == "" {
					t.Fatalf("res %+v, err %v", res, err)
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := &answers{errs: tc.errs}
			res, err, remote, _ := runActivityOf(t, func(w *Worker) {
				w.Confirm, w.confirmEvery = a.confirm, time.Millisecond
			}, workingRun, nil)
			tc.check(t, res, err)
			refs := gitT(t, t.TempDir(), "ls-remote", remote, ResultRef(testRun, "1", 1)+"/*")
			if (refs != "") != tc.pushed {
				t.Fatalf("result ref on the remote: %q, want pushed=%v", refs, tc.pushed)
			}
			if a.asked != tc.asked {
				t.Fatalf("asked %d times, want %d", a.asked, tc.asked)
			}
		})
	}
}

// A worker that cannot reach the server stops asking when the attempt's
// context ends, and pushes nothing.
func TestWorkerStopsAskingWhenTheAttemptEnds(t *testing.T) {
	t.Parallel()
	w := &Worker{Confirm: func(ctx context.Context, details any) error { return serviceerror.NewUnavailable("cut off") },
		confirmEvery: time.Millisecond}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	err := w.stillOurs(ctx, &progressBook{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v", err)
	}
}
