package remote

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A continuation's earlier work becomes the attempt's base commit; the
// worker's commit comes back as the workspace's files and index, HEAD
// staying at the base (landing commits from there).
func TestWorkspaceSnapshotAndCheckout(t *testing.T) {
	ctx := context.Background()
	ws, _, head := newRepos(t)
	base, err := snapshotCommit(ctx, ws, head, "1")
	if err != nil || base != head {
		t.Fatalf("an unchanged workspace's base is %q (%v), want %s", base, err, head)
	}
	if err := os.WriteFile(filepath.Join(ws, "earlier.txt"), []byte("earlier work\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base, err = snapshotCommit(ctx, ws, head, "1")
	if err != nil || base == head {
		t.Fatalf("the earlier work was not committed: %q (%v)", base, err)
	}
	if files := gitT(t, ws, "ls-tree", "--name-only", base); files != "a.txt\nearlier.txt" {
		t.Fatalf("the base holds %q", files)
	}
	// The worker's commit: a.txt removed, new.txt added, on that base.
	other := t.TempDir()
	gitT(t, other, "init", "--quiet")
	gitT(t, other, "fetch", "--quiet", ws, base)
	gitT(t, other, "checkout", "--quiet", "FETCH_HEAD")
	_ = os.Remove(filepath.Join(other, "a.txt"))
	_ = os.WriteFile(filepath.Join(other, "new.txt"), []byte("new\n"), 0o644)
	gitT(t, other, "add", "-A")
	gitT(t, other, "commit", "--quiet", "-m", "worker")
	commit := gitT(t, other, "rev-parse", "HEAD")
	gitT(t, ws, "fetch", "--quiet", other, commit)

	if err := checkoutResult(ctx, ws, commit, base); err != nil {
		t.Fatal(err)
	}
	if got := gitT(t, ws, "rev-parse", "HEAD"); got != head {
		t.Errorf("HEAD moved to %s", got)
	}
	if _, err := os.Stat(filepath.Join(ws, "a.txt")); !os.IsNotExist(err) {
		t.Errorf("a.txt, removed by the worker, is still there: %v", err)
	}
	if got := gitT(t, ws, "status", "--porcelain"); got != "D  a.txt\nA  earlier.txt\nA  new.txt" {
		t.Errorf("status after the checkout:\n%s", got)
	}
	// Landing takes exactly the worker's tree from the paths it changed.
	k := handedOver(ctx, ws, head, commit)
	if !k.Exact || k.Head != head || k.Tree != gitT(t, ws, "rev-parse", commit+"^{tree}") ||
		strings.Join(k.Files, ",") != "a.txt,earlier.txt,new.txt" {
		t.Errorf("handed over: %+v", k)
	}
}

// An attempt re-attached after a crash was made on an older base: its
// change is merged onto what landed since.
func TestCheckoutResultMergesOntoAMovedBase(t *testing.T) {
	ctx := context.Background()
	ws, _, old := newRepos(t)
	other := t.TempDir()
	gitT(t, other, "init", "--quiet")
	gitT(t, other, "fetch", "--quiet", ws, old)
	gitT(t, other, "checkout", "--quiet", "FETCH_HEAD")
	_ = os.WriteFile(filepath.Join(other, "worker.txt"), []byte("worker\n"), 0o644)
	gitT(t, other, "add", "-A")
	gitT(t, other, "commit", "--quiet", "-m", "worker")
	commit := gitT(t, other, "rev-parse", "HEAD")
	gitT(t, ws, "fetch", "--quiet", other, commit)
	// Another phase landed meanwhile.
	_ = os.WriteFile(filepath.Join(ws, "landed.txt"), []byte("landed\n"), 0o644)
	gitT(t, ws, "add", "-A")
	gitT(t, ws, "commit", "--quiet", "-m", "landed")

	if err := checkoutResult(ctx, ws, commit, ""); err != nil {
		t.Fatal(err)
	}
	if got := gitT(t, ws, "status", "--porcelain"); got != "A  worker.txt" {
		t.Fatalf("status after the merge:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(ws, "landed.txt")); err != nil {
		t.Fatalf("what landed meanwhile is gone: %v", err)
	}
}
