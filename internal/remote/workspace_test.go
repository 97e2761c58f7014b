package remote

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/failure"
)

// workerCommit makes, in a repository of its own (the worker's), a commit
// on base that runs change in its files, and fetches it into ws.
func workerCommit(t *testing.T, ws, base string, change func(dir string)) string {
	t.Helper()
	other := t.TempDir()
	gitT(t, other, "init", "--quiet")
	gitT(t, other, "fetch", "--quiet", ws, base)
	gitT(t, other, "checkout", "--quiet", "FETCH_HEAD")
	change(other)
	gitT(t, other, "add", "-A")
	gitT(t, other, "commit", "--quiet", "-m", "worker")
	commit := gitT(t, other, "rev-parse", "HEAD")
	gitT(t, ws, "fetch", "--quiet", other, commit)
	return commit
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A continuation's earlier work (Request.Continues, a commit on the base)
// is what the worker starts from; its commit comes back as a commit on the
// attempt's base holding the whole work, its files named from that base,
// and nothing of this machine's worktrees is touched.
func TestContinuationHandOver(t *testing.T) {
	ctx := context.Background()
	ws, _, head := newRepos(t)
	earlier := workerCommit(t, ws, head, func(dir string) { write(t, filepath.Join(dir, "earlier.txt"), "earlier work\n") })
	// The worker's commit: a.txt removed, new.txt added, on the earlier work.
	commit := workerCommit(t, ws, earlier, func(dir string) {
		_ = os.Remove(filepath.Join(dir, "a.txt"))
		write(t, filepath.Join(dir, "new.txt"), "new\n")
	})
	var log bytes.Buffer
	a := executor.Attempt{Request: executor.Request{DisplayID: "1", Base: head, Continues: earlier}, Log: &log}
	ev := (&Executor{}).evidence(ctx, ws, a, &recObserver{}, AttemptResult{Result: executor.Result{Commit: commit,
		Evidence: failure.Evidence{AgentRan: true}}}, earlier)
	if ev.Fault != nil || ev.Commit == "" {
		t.Fatalf("handed over %q (%v)", ev.Commit, ev.Fault)
	}
	if parent := gitT(t, ws, "rev-parse", ev.Commit+"^"); parent != head {
		t.Errorf("the handed-over commit's parent is %s, want the base %s", parent, head)
	}
	if got, want := gitT(t, ws, "rev-parse", ev.Commit+"^{tree}"), gitT(t, ws, "rev-parse", commit+"^{tree}"); got != want {
		t.Errorf("the handed-over tree is %s, want the worker's %s", got, want)
	}
	if got := strings.Join(ev.FilesChanged, ","); got != "a.txt,earlier.txt,new.txt" {
		t.Errorf("files changed: %s", got)
	}
	if got := gitT(t, ws, "status", "--porcelain"); got != "" {
		t.Errorf("the repository's checkout was touched: %q", got)
	}

	// The worker changed nothing: the work is the earlier work it
	// continued.
	ev = (&Executor{}).evidence(ctx, ws, a, &recObserver{}, AttemptResult{}, earlier)
	if ev.Commit != earlier || strings.Join(ev.FilesChanged, ",") != "earlier.txt" {
		t.Errorf("nothing changed on the worker: handed over %q, files %v", ev.Commit, ev.FilesChanged)
	}
}

// A nested repository in the worker's commit (a gitlink) is named as the
// local status names it, with a trailing slash, for the phase runner to
// refuse.
func TestHandedOverNestedRepositoryIsNamed(t *testing.T) {
	ctx := context.Background()
	ws, _, head := newRepos(t)
	commit := workerCommit(t, ws, head, func(dir string) {
		sub := filepath.Join(dir, "sub")
		gitT(t, dir, "init", "--quiet", sub)
		write(t, filepath.Join(sub, "f.txt"), "f\n")
		gitT(t, sub, "add", "f.txt")
		gitT(t, sub, "commit", "--quiet", "-m", "nested")
	})
	a := executor.Attempt{Request: executor.Request{DisplayID: "1", Base: head}, Log: &bytes.Buffer{}}
	ev := (&Executor{}).evidence(ctx, ws, a, &recObserver{}, AttemptResult{Result: executor.Result{Commit: commit}}, head)
	if strings.Join(ev.FilesChanged, ",") != "sub/" {
		t.Fatalf("files changed: %v (%v)", ev.FilesChanged, ev.Fault)
	}
}

// An attempt re-attached after a crash was made on an older base: its
// change is merged onto what landed since, in git's objects, and a
// conflict is the machinery's failure, named.
func TestReattachedResultMergesOntoAMovedBase(t *testing.T) {
	ctx := context.Background()
	ws, _, old := newRepos(t)
	commit := workerCommit(t, ws, old, func(dir string) { write(t, filepath.Join(dir, "worker.txt"), "worker\n") })
	clash := workerCommit(t, ws, old, func(dir string) { write(t, filepath.Join(dir, "a.txt"), "the worker's a\n") })
	// Another phase landed meanwhile.
	write(t, filepath.Join(ws, "landed.txt"), "landed\n")
	write(t, filepath.Join(ws, "a.txt"), "the line's a\n")
	gitT(t, ws, "add", "-A")
	gitT(t, ws, "commit", "--quiet", "-m", "landed")
	head := gitT(t, ws, "rev-parse", "HEAD")

	a := executor.Attempt{Request: executor.Request{DisplayID: "1", Base: head}, Log: &bytes.Buffer{}}
	ev := (&Executor{}).evidence(ctx, ws, a, &recObserver{}, AttemptResult{Result: executor.Result{Commit: commit}}, "")
	if ev.Fault != nil || ev.Commit == "" || ev.Commit == commit {
		t.Fatalf("re-attached result: %q (%v)", ev.Commit, ev.Fault)
	}
	if parent := gitT(t, ws, "rev-parse", ev.Commit+"^"); parent != head {
		t.Errorf("the merged commit's parent is %s, want %s", parent, head)
	}
	if files := gitT(t, ws, "ls-tree", "--name-only", ev.Commit); files != "a.txt\nlanded.txt\nworker.txt" {
		t.Errorf("the merged tree holds %q", files)
	}
	if strings.Join(ev.FilesChanged, ",") != "worker.txt" {
		t.Errorf("files changed: %v", ev.FilesChanged)
	}
	if st := gitT(t, ws, "status", "--porcelain"); st != "" {
		t.Errorf("the workspace was touched: %q", st)
	}

	ev = (&Executor{}).evidence(ctx, ws, a, &recObserver{}, AttemptResult{Result: executor.Result{Commit: clash}}, "")
	if ev.Fault == nil || !strings.Contains(ev.Fault.Message, "conflicts with what landed") || !strings.Contains(ev.Fault.Message, "a.txt") {
		t.Fatalf("a conflicting re-attached result: %+v", ev.Fault)
	}
}
