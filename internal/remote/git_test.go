package remote

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/autobuild-sh/autobuild/internal/executor"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

func gitT(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// newRepos makes the user's repository with one commit on main and a bare
// repository as the shared remote.
func newRepos(t *testing.T) (user, remote, head string) {
	t.Helper()
	base := t.TempDir()
	user, remote = filepath.Join(base, "user"), filepath.Join(base, "remote.git")
	gitT(t, base, "init", "--quiet", "-b", "main", user)
	gitT(t, base, "init", "--quiet", "--bare", remote)
	if err := os.WriteFile(filepath.Join(user, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitT(t, user, "add", "a.txt")
	gitT(t, user, "commit", "--quiet", "-m", "first")
	return user, remote, gitT(t, user, "rev-parse", "HEAD")
}

// The whole round: the coordinator pushes a base, a worker checks it out
// in its own worktree, commits and pushes its work, the coordinator fetches
// it, and the run's refs are deleted at the end. The user's branches never
// reach the remote.
func TestAttemptRoundTripThroughTheRemote(t *testing.T) {
	ctx := context.Background()
	user, remote, head := newRepos(t)
	sh := Shared{Repo: user, Remote: remote, RunID: testRun}
	req := AttemptRequest{Request: executor.Request{RunID: testRun, PhaseID: phaseid.ID("2a"), Seq: 1, Base: head, Timeout: time.Minute},
		Remote: remote, BaseRef: BaseRef(testRun, "2a", 1), ResultRef: ResultRef(testRun, "2a", 1)}
	if err := sh.PushBase(ctx, head, req.BaseRef); err != nil {
		t.Fatal(err)
	}
	ws, err := PrepareWorkspace(ctx, filepath.Join(t.TempDir(), "worker"), req)
	if err != nil {
		t.Fatal(err)
	}
	if got := gitT(t, ws.Path, "rev-parse", "HEAD"); got != head {
		t.Fatalf("worktree at %s, want the base %s", got, head)
	}
	if empty, err := ws.Commit(ctx, "nothing"); err != nil || empty != "" {
		t.Fatalf("an unchanged worktree committed %q (%v)", empty, err)
	}
	if err := os.WriteFile(filepath.Join(ws.Path, "b.txt"), []byte("b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws.Path, ":!weird*"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	commit, err := ws.Commit(ctx, "phase 2a attempt 1")
	if err != nil || commit == "" {
		t.Fatalf("commit %q: %v", commit, err)
	}
	try := TryRef(req.ResultRef, 1, "wf")
	if err := ws.Push(ctx, remote, testRun, try, commit); err != nil {
		t.Fatal(err)
	}
	if err := ws.Remove(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(ws.Path); !os.IsNotExist(err) {
		t.Errorf("the worktree is still there: %v", err)
	}

	if err := sh.FetchResult(ctx, try, commit); err != nil {
		t.Fatal(err)
	}
	files := gitT(t, user, "ls-tree", "--name-only", commit)
	if files != ":!weird*\na.txt\nb.txt" {
		t.Errorf("the fetched commit holds %q", files)
	}
	if parent := gitT(t, user, "rev-parse", commit+"^"); parent != head {
		t.Errorf("the commit's parent is %s, want the base %s", parent, head)
	}
	refs := gitT(t, user, "ls-remote", remote)
	if strings.Contains(refs, "refs/heads/") {
		t.Errorf("a branch reached the remote:\n%s", refs)
	}
	deleteRunRefs(ctx, t, sh, user, remote)
	if got := gitT(t, user, "rev-parse", "main"); got != head {
		t.Errorf("main moved to %s", got)
	}
}

// Two tries of one attempt push to refs of their own: the first try's
// worker, cut off from the server and taken for dead, pushes late, after
// the try that replaced it; the coordinator still fetches the second try's
// commit from the second try's ref, and the run's end deletes both refs,
// on the remote and here. (With one result ref per attempt, the late push
// replaced the second try's commit and the fetch failed.)
func TestALateTrysPushLeavesTheNextTrysResult(t *testing.T) {
	ctx := context.Background()
	user, remote, head := newRepos(t)
	sh := Shared{Repo: user, Remote: remote, RunID: testRun}
	req := AttemptRequest{Request: executor.Request{RunID: testRun, PhaseID: "2a", Seq: 1, Base: head, Timeout: time.Minute},
		Remote: remote, BaseRef: BaseRef(testRun, "2a", 1), ResultRef: ResultRef(testRun, "2a", 1)}
	if err := sh.PushBase(ctx, head, req.BaseRef); err != nil {
		t.Fatal(err)
	}
	work := func(n int, text string) (Workspace, string) {
		t.Helper()
		// Each try on a machine of its own (its own --dir).
		ws, err := PrepareWorkspace(ctx, filepath.Join(t.TempDir(), "worker"), req)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(ws.Path, "b.txt"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		commit, err := ws.Commit(ctx, text)
		if err != nil || commit == "" {
			t.Fatalf("commit %q: %v", commit, err)
		}
		return ws, commit
	}
	const wf = "0c5e1d2a-5b7e-4c1f-9d1e-3a6f2b8c9d0e"
	late, lateCommit := work(1, "the cut-off worker's\n")
	next, nextCommit := work(2, "the second try's\n")
	lateRef, nextRef := TryRef(req.ResultRef, 1, wf), TryRef(req.ResultRef, 2, wf)
	if lateRef == nextRef {
		t.Fatalf("two tries share the ref %s", lateRef)
	}
	if err := next.Push(ctx, remote, testRun, nextRef, nextCommit); err != nil {
		t.Fatal(err)
	}
	if err := late.Push(ctx, remote, testRun, lateRef, lateCommit); err != nil {
		t.Fatal(err)
	}
	if err := sh.FetchResult(ctx, nextRef, nextCommit); err != nil {
		t.Fatalf("the second try's result after the late push: %v", err)
	}
	if got := gitT(t, user, "rev-parse", nextRef); got != nextCommit {
		t.Fatalf("%s holds %s here, want %s", nextRef, got, nextCommit)
	}
	// A try's ref is deleted by the worker that pushed it, alone.
	if err := late.DeletePushed(ctx, remote, testRun, lateRef); err != nil {
		t.Fatal(err)
	}
	if refs := gitT(t, user, "ls-remote", remote, req.ResultRef+"/*"); !strings.Contains(refs, nextRef) || strings.Contains(refs, lateRef) {
		t.Fatalf("after the late try deleted its ref, the remote holds:\n%s", refs)
	}
	if err := late.Push(ctx, remote, testRun, lateRef, lateCommit); err != nil {
		t.Fatal(err)
	}
	deleteRunRefs(ctx, t, sh, user, remote)
}

// A second try of the same attempt on the same worker (its first worker
// process died) replaces the earlier try's worktree.
func TestPrepareReplacesAnEarlierTrysWorktree(t *testing.T) {
	ctx := context.Background()
	user, remote, head := newRepos(t)
	sh := Shared{Repo: user, Remote: remote, RunID: testRun}
	req := AttemptRequest{Request: executor.Request{RunID: testRun, PhaseID: "x", Seq: 2, Base: head, Timeout: time.Minute},
		Remote: remote, BaseRef: BaseRef(testRun, "x", 2), ResultRef: ResultRef(testRun, "x", 2)}
	if err := sh.PushBase(ctx, head, req.BaseRef); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ws, err := PrepareWorkspace(ctx, dir, req)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws.Path, "half.txt"), []byte("half done\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws2, err := PrepareWorkspace(ctx, dir, req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(ws2.Path, "half.txt")); !os.IsNotExist(err) {
		t.Errorf("the earlier try's work is still in the worktree: %v", err)
	}
}

// A worker that cannot fetch says which remote and which ref.
func TestPrepareNamesAnUnreachableRemote(t *testing.T) {
	_, _, head := newRepos(t)
	missing := filepath.Join(t.TempDir(), "nowhere.git")
	req := AttemptRequest{Request: executor.Request{RunID: testRun, PhaseID: "x", Seq: 1, Base: head, Timeout: time.Minute},
		Remote: missing, BaseRef: BaseRef(testRun, "x", 1), ResultRef: ResultRef(testRun, "x", 1)}
	_, err := PrepareWorkspace(context.Background(), t.TempDir(), req)
	if err == nil || !strings.Contains(err.Error(), missing) {
		t.Fatalf("err = %v, want one naming %s", err, missing)
	}
}

// The plumbing refuses every ref outside the run's and never pushes a
// branch; a remote it cannot push to fails the preflight, named.
func TestSharedRefusesRefsOutsideTheRunAndChecksPush(t *testing.T) {
	ctx := context.Background()
	user, remote, head := newRepos(t)
	sh := Shared{Repo: user, Remote: remote, RunID: testRun}
	for _, ref := range []string{"refs/heads/main", "refs/autobuild/other/base/x/1", RunRefPrefix(testRun) + "a..b"} {
		if err := sh.PushBase(ctx, head, ref); err == nil {
			t.Errorf("pushed to %s", ref)
		}
	}
	if err := sh.CheckPush(ctx, 10*time.Second); err != nil {
		t.Fatalf("preflight of a writable remote: %v", err)
	}
	if refs := gitT(t, user, "ls-remote", remote); refs != "" {
		t.Errorf("the probe stayed on the remote: %s", refs)
	}
	bad := Shared{Repo: user, Remote: filepath.Join(t.TempDir(), "missing.git"), RunID: testRun}
	if err := bad.CheckPush(ctx, 10*time.Second); err == nil || !strings.Contains(err.Error(), bad.Remote) {
		t.Fatalf("preflight of a missing remote: %v", err)
	}
}

func TestNormalizeRemote(t *testing.T) {
	for in, want := range map[string]string{
		"remote.git": "/home/u/repo/remote.git", "/srv/r.git": "/srv/r.git",
		"ssh://git@h/r.git": "ssh://git@h/r.git", "git@github.com:o/r.git": "git@github.com:o/r.git",
		"../shared.git": "/home/u/shared.git",
	} {
		got, err := NormalizeRemote(in, "/home/u/repo")
		if err != nil || got != want {
			t.Errorf("NormalizeRemote(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "--upload-pack=evil", "-x"} {
		if _, err := NormalizeRemote(in, "/"); err == nil {
			t.Errorf("NormalizeRemote(%q) passed", in)
		}
	}
}

// deleteRunRefs ends the run's refs (sh.DeleteRefs) and checks none is
// left, on the remote or fetched into the user's repository.
func deleteRunRefs(ctx context.Context, t *testing.T, sh Shared, user, remote string) {
	t.Helper()
	if err := sh.DeleteRefs(ctx); err != nil {
		t.Fatal(err)
	}
	if refs := gitT(t, user, "ls-remote", remote); refs != "" {
		t.Errorf("refs left on the remote:\n%s", refs)
	}
	if refs := gitT(t, user, "for-each-ref", "refs/autobuild/"); refs != "" {
		t.Errorf("fetched refs left in the user's repository:\n%s", refs)
	}
}
