package wtenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/gittest"
)

// repo makes a git repository with one commit of files (path → content);
// ignored files are written after the commit.
func repo(t *testing.T, tracked, ignored map[string]string) string {
	t.Helper()
	dir := gittest.New(t, gittest.Files(tracked), gittest.Message("init"))
	for p, c := range ignored {
		write(t, filepath.Join(dir, p), c)
	}
	return dir
}

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %s: %s", strings.Join(args, " "), out)
	return string(out)
}

func write(t *testing.T, path, content string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

// worktree adds a linked worktree of dir and returns its path.
func worktree(t *testing.T, dir string) string {
	t.Helper()
	wt := filepath.Join(dir, ".autobuild", "worktrees", "phase-1")
	require.NoError(t, os.MkdirAll(filepath.Dir(wt), 0o755))
	gitIn(t, dir, "worktree", "add", "-q", "-b", "phase-1", wt)
	return wt
}
