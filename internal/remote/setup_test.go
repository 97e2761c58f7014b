package remote

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/autobuild-sh/autobuild/internal/agent"
)

// The worker owns the attempt's workspace, and so its [worktree] setup:
// the command runs there before the agent (which sees what it made), a
// failing one comes back as the result's Setup with its output and
// nothing is pushed, and one that leaves files git does not ignore fails
// as a local setup does.
func TestWorkerRunsTheSetup(t *testing.T) {
	run := LocalRunner("", time.Second, 1<<20)
	withSetup := func(setup string) func(*AttemptRequest) {
		return func(r *AttemptRequest) {
			r.Agent = agent.Agent{Name: "script", Shell: "cp setup.txt work.txt"}
			r.Setup = setup
		}
	}
	res, err, first, _ := runActivity(t, run, withSetup(
		`echo setup.txt >> "$(git rev-parse --git-common-dir)/info/exclude" && echo "ready on $AUTOBUILD_PHASE_ID" > setup.txt`))
	if err != nil || res.Setup != nil || res.Commit == "" || res.AgentExitCode != 0 {
		t.Fatalf("a passing setup: %+v, %v", res, err)
	}
	if got := gitT(t, first, "show", res.Commit+":work.txt"); got != "ready on 1" {
		t.Errorf("the agent did not see what the setup made: work.txt = %q", got)
	}
	if !strings.Contains(res.LogTail, "setup passed") {
		t.Errorf("the log does not say the setup passed:\n%s", res.LogTail)
	}

	res, err, remote, _ := runActivity(t, run, withSetup("echo 'npm ERR! broken' >&2; exit 3"))
	if err != nil || res.Setup == nil || res.Setup.How != "exit 3" || !strings.Contains(res.Setup.Tail, "npm ERR! broken") {
		t.Fatalf("a failing setup: %+v, %v", res.Setup, err)
	}
	if res.Commit != "" || res.AgentRan {
		t.Errorf("the agent ran or work was pushed after a failed setup: %+v", res)
	}
	if refs := gitT(t, remote, "for-each-ref", "refs/autobuild/"+testRun+"/result/"); refs != "" {
		t.Errorf("pushed after a failed setup: %s", refs)
	}

	res, err, _, _ = runActivity(t, run, withSetup("echo x > setup.txt"))
	if err != nil || res.Setup == nil || strings.Join(res.Setup.LeftFiles, ",") != "setup.txt" {
		t.Fatalf("a setup that leaves a file git does not ignore: %+v, %v", res.Setup, err)
	}
}

// The worker runs the [worktree] teardown in the attempt's worktree once
// it is done with it: after the work is committed (what the teardown
// deletes is still in the commit), its output in the attempt's log; a
// failing teardown is logged and the attempt's outcome stands; without a
// setup no teardown runs, as locally.
func TestWorkerRunsTheTeardown(t *testing.T) {
	run := LocalRunner("", time.Second, 1<<20)
	marks := filepath.Join(t.TempDir(), "teardowns")
	with := func(setup, teardown string) func(*AttemptRequest) {
		return func(r *AttemptRequest) {
			r.Agent = agent.Agent{Name: "script", Shell: "echo work > work.txt"}
			r.Setup, r.Teardown = setup, teardown
		}
	}
	res, err, remote, _ := runActivity(t, run, with("true", `echo "down on $AUTOBUILD_PHASE_ID"; pwd >> `+marks+`; rm work.txt`))
	if err != nil || res.Commit == "" || res.Gate != nil {
		t.Fatalf("an attempt with a teardown: %+v, %v", res, err)
	}
	if got := gitT(t, remote, "show", res.Commit+":work.txt"); got != "work" {
		t.Errorf("the teardown ran before the commit: work.txt = %q", got)
	}
	if !strings.Contains(res.LogTail, "# autobuild: teardown: ") || !strings.Contains(res.LogTail, "down on 1") {
		t.Errorf("the teardown's output is not in the attempt's log:\n%s", res.LogTail)
	}
	b, err := os.ReadFile(marks)
	if err != nil || !strings.Contains(string(b), filepath.Join("work", testRun, "1-1")) {
		t.Fatalf("the teardown ran in %q (%v), want the attempt's worktree", b, err)
	}

	res, err, _, _ = runActivity(t, run, with("true", "echo 'compose: no such service' >&2; exit 4"))
	if err != nil || res.Commit == "" || res.Gate != nil || res.Setup != nil {
		t.Fatalf("a failing teardown changed the attempt: %+v, %v", res, err)
	}
	if !strings.Contains(res.LogTail, "teardown failed (exit 4): the attempt's outcome stands") || !strings.Contains(res.LogTail, "no such service") {
		t.Errorf("the failing teardown is not logged:\n%s", res.LogTail)
	}

	_ = os.Remove(marks)
	res, err, _, _ = runActivity(t, run, with("", "pwd >> "+marks))
	if err != nil || res.Commit == "" {
		t.Fatalf("%+v, %v", res, err)
	}
	if _, err := os.Stat(marks); !os.IsNotExist(err) || strings.Contains(res.LogTail, "teardown") {
		t.Errorf("a teardown ran without a setup: %v\n%s", err, res.LogTail)
	}
}
