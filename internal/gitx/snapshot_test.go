package gitx

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/gittest"
)

// What happens between a snapshot and a restore (a build's binary, a
// coverage directory, a formatter's rewrite, a deleted file) is undone;
// the agent's uncommitted work from before the snapshot stays, and so do
// ignored files and the worktree's index.
func TestSnapshotAndRestoreTree(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := gittest.New(t, gittest.File("main.go", "package main\n"), gittest.File("keep.txt", "keep\n"),
		gittest.File(".gitignore", "*.log\n"), gittest.Message("base"))
	write := func(rel, content string) {
		p := filepath.Join(dir, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}

	// The agent's work: a changed file, a new one, a staged one.
	write("main.go", "package main\n\nfunc main() {}\n")
	write("agent/new.go", "package agent\n")
	write("staged.txt", "staged\n")
	gitT(t, dir, "add", "staged.txt")
	statusBefore := gitT(t, dir, "status", "--porcelain")
	tree, err := SnapshotTree(ctx, dir)
	require.NoError(t, err)
	require.Equal(t, statusBefore, gitT(t, dir, "status", "--porcelain"), "a snapshot changes nothing")

	// The gates: a binary, a nested output directory, a rewrite, a deletion,
	// and an ignored log.
	write("myapp", "\x7fELF binary")
	write("coverage/html/index.html", "<html>")
	write("main.go", "package main\n\nfunc main() {\n}\n")
	require.NoError(t, os.Remove(filepath.Join(dir, "keep.txt")))
	write("gate.log", "log\n")

	back, err := RestoreTree(ctx, dir, tree)
	require.NoError(t, err)
	require.Equal(t, []string{"coverage/html/index.html", "keep.txt", "main.go", "myapp"}, back)
	require.NoFileExists(t, filepath.Join(dir, "myapp"))
	require.NoDirExists(t, filepath.Join(dir, "coverage"))
	got, err := os.ReadFile(filepath.Join(dir, "main.go"))
	require.NoError(t, err)
	require.Equal(t, "package main\n\nfunc main() {}\n", string(got))
	require.FileExists(t, filepath.Join(dir, "keep.txt"))
	require.FileExists(t, filepath.Join(dir, "agent/new.go"))
	require.FileExists(t, filepath.Join(dir, "gate.log"), "ignored files are not the gates' to lose")
	require.Equal(t, statusBefore, gitT(t, dir, "status", "--porcelain"))

	// Nothing changed: nothing to put back.
	back, err = RestoreTree(ctx, dir, tree)
	require.NoError(t, err)
	require.Empty(t, back)
}
