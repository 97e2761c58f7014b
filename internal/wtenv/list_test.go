package wtenv

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSelectTakesOnlyIgnoredFiles(t *testing.T) {
	dir := repo(t, map[string]string{
		".gitignore":       "node_modules/\n.env\n*.log\n.autobuild/\nbuild/\n",
		"web/package.json": "{}\n",
		".worktreeinclude": "# from the file\n*.log\nbuild/gen/\n",
		"tracked.local":    "tracked\n",
	}, map[string]string{
		".env":                        "A=1\n",
		"node_modules/ms/index.js":    "x\n",
		"web/node_modules/a/index.js": "y\n",
		"debug.log":                   "log\n",
		"build/gen/a.go":              "package gen\n",
		"build/other/b.go":            "package other\n",
		"untracked.local":             "not ignored: could be committed\n",
		".autobuild/worktree-files/x": "autobuild's own\n",
	})
	pats, err := Patterns(dir, []string{".env", "node_modules", "*.local"})
	require.NoError(t, err)
	require.Equal(t, []string{".env", "node_modules", "*.local", "*.log", "build/gen/"}, pats)
	es, err := Select(context.Background(), dir, pats)
	require.NoError(t, err)
	require.Equal(t, ".env, build/gen/, debug.log, node_modules/, web/node_modules/", List(es))
}

func TestSelectWithoutPatternsRunsNoGit(t *testing.T) {
	es, err := Select(context.Background(), "/nonexistent", nil)
	require.NoError(t, err)
	require.Empty(t, es)
}

// A worktree that another process is adding or removing under
// .autobuild/worktrees (the run's verification worktree beside a phase's)
// must not fail the listing: git reads the .git file of each repository
// its walk meets, and here that worktree's commondir cannot be read, as
// for the moment git worktree add has not written it yet.
func TestSelectDoesNotWalkIntoAutobuildsWorktrees(t *testing.T) {
	dir := repo(t, map[string]string{".gitignore": "node_modules/\n"}, map[string]string{
		"node_modules/ms/index.js": "x\n",
	})
	admin := filepath.Join(dir, ".git", "worktrees", "verify")
	require.NoError(t, os.MkdirAll(filepath.Join(admin, "commondir"), 0o755)) // unreadable as a file
	write(t, filepath.Join(admin, "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(admin, "gitdir"), filepath.Join(dir, ".autobuild", "worktrees", "verify", ".git")+"\n")
	write(t, filepath.Join(dir, ".autobuild", "worktrees", "verify", ".git"), "gitdir: "+admin+"\n")
	// git itself trips on it when it walks there:
	cmd := exec.Command("git", "ls-files", "--others", "--ignored", "--directory", "--exclude=node_modules")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "git should fail walking into the half-made worktree: %s", out)

	pats, err := Patterns(dir, []string{"node_modules"})
	require.NoError(t, err)
	es, err := Select(context.Background(), dir, pats)
	require.NoError(t, err)
	require.Equal(t, "node_modules/", List(es))
}
