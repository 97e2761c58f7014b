package wtenv

import (
	"context"
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
