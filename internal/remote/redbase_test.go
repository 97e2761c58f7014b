package remote

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/gates"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// --allow-red-base on a worker: the base's known failing tests travel in
// the request (KnownFailing), and the worker's gate that fails with only
// those passes, as a local one does; a gate that fails with a test the
// base did not fail still fails, and so does every failure when the
// request names none.
func TestWorkerGatesCountOnlyNewFailures(t *testing.T) {
	run := LocalRunner("", time.Second, 1<<20)
	const gate = `rc=0; if test -f old.txt; then echo "--- FAIL: TestOld (0.00s)"; rc=1; fi; ` +
		`if test -f new.txt; then echo "--- FAIL: TestNew (0.00s)"; rc=1; fi; exit $rc`
	attempt := func(agentShell string, known map[string][]string) func(*AttemptRequest) {
		return func(r *AttemptRequest) {
			r.Agent = agent.Agent{Name: "script", Shell: agentShell}
			r.Gates = []gates.Gate{{Kind: "test", Command: gate, Declared: true}}
			r.KnownFailing = known
		}
	}
	known := map[string][]string{"test": {"TestOld"}}

	res, err, _, _ := runActivity(t, run, attempt("echo red > old.txt", known))
	if err != nil || res.Gate != nil {
		t.Fatalf("a gate failing with the base's TestOld only: gate %+v, err %v", res.Gate, err)
	}
	if g := res.Gates["test"]; !g.Passed || g.Status != state.GatePassed || g.KnownFailures != 1 {
		t.Fatalf("the gate's result %+v, want passed with 1 known failure", g)
	}
	if !strings.Contains(res.LogTail, "failed only with tests that failed on the run's base already") {
		t.Errorf("the log does not say why the gate passed:\n%s", res.LogTail)
	}

	res, err, _, _ = runActivity(t, run, attempt("echo red > old.txt; echo new > new.txt", known))
	if err != nil || res.Gate == nil || res.Gates["test"].Passed {
		t.Fatalf("a gate failing with a new TestNew: gate %+v, err %v", res.Gate, err)
	}

	res, err, _, _ = runActivity(t, run, attempt("echo red > old.txt", nil))
	if err != nil || res.Gate == nil || res.Gates["test"].Passed {
		t.Fatalf("a request without known failures: gate %+v, err %v", res.Gate, err)
	}
}

// An attempt sent before the run's base check ended (BasePending) asks
// the run's workflow for the base's known failing tests when its gate
// fails, until the check has ended, and counts only new failures then.
func TestWorkerAsksForTheBaseWhenSentBeforeItsCheckEnded(t *testing.T) {
	run := LocalRunner("", time.Second, 1<<20)
	const gate = `if test -f old.txt; then echo "--- FAIL: TestOld (0.00s)"; exit 1; fi`
	var asked int
	res, err, _, _ := runActivityOf(t, func(w *Worker) {
		w.confirmEvery = time.Millisecond
		w.Base = func(ctx context.Context, runID string) (BaseVerdict, error) {
			asked++
			switch {
			case runID != testRun:
				t.Errorf("asked run %s", runID)
			case asked == 1:
				return BaseVerdict{}, errors.New("the server is out of reach")
			case asked < 4:
				return BaseVerdict{}, nil // the check still runs
			}
			return BaseVerdict{Known: true, Failing: map[string][]string{"test": {"TestOld"}}}, nil
		}
	}, run, func(r *AttemptRequest) {
		r.Agent = agent.Agent{Name: "script", Shell: "echo red > old.txt"}
		r.Gates = []gates.Gate{{Kind: "test", Command: gate, Declared: true}}
		r.BasePending = true
	})
	if err != nil || res.Gate != nil || res.Gates["test"].KnownFailures != 1 {
		t.Fatalf("gate %+v, gates %+v, err %v", res.Gate, res.Gates, err)
	}
	if asked != 4 {
		t.Errorf("asked %d times, want 4", asked)
	}
	if !strings.Contains(res.LogTail, "asking the coordinator's check of the run's base") {
		t.Errorf("the log does not say it asked:\n%s", res.LogTail)
	}
}
