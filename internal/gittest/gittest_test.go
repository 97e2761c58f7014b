package gittest

import (
	"os"
	"path/filepath"
	"testing"
)

func TestNewMakesACommittedRepository(t *testing.T) {
	t.Parallel()
	dir := New(t, Branch("trunk"), File("plan.md", "# plan\n"), File("src/a.txt", "a\n"), Message("first"))
	if got := Git(t, dir, "rev-parse", "--abbrev-ref", "HEAD"); got != "trunk" {
		t.Fatalf("branch %q, want trunk", got)
	}
	if got := Git(t, dir, "log", "--format=%s|%an <%ae>"); got != "first|Test User <test@example.com>" {
		t.Fatalf("log %q", got)
	}
	if got := Git(t, dir, "ls-files"); got != "plan.md\nsrc/a.txt" {
		t.Fatalf("files %q", got)
	}
	if got := Git(t, dir, "status", "--porcelain"); got != "" {
		t.Fatalf("not clean: %q", got)
	}
}

func TestNewWithoutFilesMakesAnEmptyCommit(t *testing.T) {
	t.Parallel()
	dir := New(t, WithIdentity("e2e", "e2e@autobuild.invalid"))
	if got := Git(t, dir, "log", "--format=%s %an"); got != "initial e2e" {
		t.Fatalf("log %q", got)
	}
}

func TestNoCommitAt(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "nested", "repo")
	New(t, At(dir), NoCommit(), File("a.txt", "a\n"))
	if _, err := os.Stat(filepath.Join(dir, "a.txt")); err != nil {
		t.Fatal(err)
	}
	if got := Git(t, dir, "status", "--porcelain"); got != "?? a.txt" {
		t.Fatalf("status %q", got)
	}
}
