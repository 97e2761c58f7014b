package remote

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// A request's remote reaches the worker's git as an argument: one that
// starts with a dash (an option to git: --upload-pack=…) is refused, as
// NormalizeRemote refuses it on the coordinator.
func TestValidateRefusesADashedRemote(t *testing.T) {
	req := AttemptRequest{Request: executor.Request{RunID: testRun, PhaseID: phaseid.ID("1"), Seq: 1,
		Base: strings.Repeat("a", 40), Timeout: time.Minute},
		Remote: "/srv/repo.git", BaseRef: BaseRef(testRun, "1", 1), ResultRef: ResultRef(testRun, "1", 1)}
	if err := req.Validate(); err != nil {
		t.Fatalf("a valid request refused: %v", err)
	}
	req.Remote = "--upload-pack=touch /tmp/pwned"
	err := req.Validate()
	if err == nil || !strings.Contains(err.Error(), "starts with a dash") {
		t.Fatalf("a remote git reads as an option: %v", err)
	}
}

// A worker's name, which it gives itself on another machine, is shown and
// recorded as one line of plain words: no escape sequence, and no tab to
// shift the columns of autobuild status.
func TestWorkerLabel(t *testing.T) {
	for in, want := range map[string]string{
		"build-7:4242":                "build-7:4242",
		"build\t7\n":                  "build 7",
		"\x1b[31mred\x1b[0m  worker ": "red worker",
		"":                            "",
	} {
		if got := workerLabel(in); got != want {
			t.Errorf("workerLabel(%q) = %q, want %q", in, got, want)
		}
	}
}

// The attempt a resumed coordinator re-attaches to is the phase's latest
// unclaimed one, by its number: the workflow lists the keys sorted as
// text, where "1/10" comes before "1/9".
func TestLatestKeyIsByNumber(t *testing.T) {
	if got := latestKey([]string{"1/10", "1/9"}); got != "1/10" {
		t.Errorf("latestKey = %q, want 1/10", got)
	}
	if got := latestKey([]string{"1/2"}); got != "1/2" {
		t.Errorf("latestKey = %q, want 1/2", got)
	}
}

// The coordinator fetches the work a usage limit's result carries, as it
// fetches a result's: from the try's own ref, only one of the attempt's.
func TestFetchWorkTakesALimitsWork(t *testing.T) {
	ctx := context.Background()
	user, remote, head := newRepos(t)
	sh := Shared{Repo: user, Remote: remote, RunID: testRun}
	req := AttemptRequest{Request: executor.Request{RunID: testRun, PhaseID: phaseid.ID("1"), Seq: 1, Base: head},
		Remote: remote, BaseRef: BaseRef(testRun, "1", 1), ResultRef: ResultRef(testRun, "1", 1)}
	// A worker's commit on the base, pushed to its try's ref.
	other := t.TempDir()
	gitT(t, other, "init", "--quiet")
	gitT(t, other, "fetch", "--quiet", user, head)
	gitT(t, other, "checkout", "--quiet", "FETCH_HEAD")
	write(t, filepath.Join(other, "half.txt"), "half\n")
	gitT(t, other, "add", "-A")
	gitT(t, other, "commit", "--quiet", "-m", "worker")
	commit := gitT(t, other, "rev-parse", "HEAD")
	try := TryRef(req.ResultRef, 1, "wf")
	gitT(t, other, "push", "--quiet", remote, commit+":"+try)

	limited := AttemptResult{Limit: &Limit{Result: &AttemptResult{Result: executor.Result{Commit: commit}, Ref: try}}}
	if err := sh.fetchWork(ctx, "1/1", req, limited); err != nil {
		t.Fatal(err)
	}
	if got := gitT(t, user, "rev-parse", try); got != commit {
		t.Fatalf("fetched %s, want %s", got, commit)
	}
	limited.Limit.Result.Ref = RunRefPrefix(testRun) + "base/1/1"
	if err := sh.fetchWork(ctx, "1/1", req, limited); err == nil {
		t.Fatal("a limit's work from a ref not the attempt's try's was fetched")
	}
}
