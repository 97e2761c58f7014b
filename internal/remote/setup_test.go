package remote

import (
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
