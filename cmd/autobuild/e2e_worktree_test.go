package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// validate and --dry-run list what each phase's worktree gets; a run
// brings the ignored .env in, says how once, and the agent's edit of it
// stays in the worktree.
func TestWorktreeFilesListedAndBroughtIn(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, "# P\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n| 2 | 1 |\n\n## Phase 1: A\n\n- [ ] x\n\n## Phase 2: B\n\n- [ ] y\n")
	writeFile(t, filepath.Join(repo, ".gitignore"), ".env\nnode_modules/\n")
	writeFile(t, filepath.Join(repo, ".worktreeinclude"), "node_modules/\n")
	writeFile(t, filepath.Join(repo, "autobuild.toml"), "[gates]\ntest = \"grep -q SECRET=1 .env && test -f node_modules/x/index.js\"\n\n[worktree]\ncopy = [\".env\"]\nsetup = \"echo ready\"\n")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "config")
	writeFile(t, filepath.Join(repo, ".env"), "SECRET=1\n")
	writeFile(t, filepath.Join(repo, "node_modules", "x", "index.js"), "x\n")

	for _, args := range [][]string{{"validate", "plan.md"}, {"plan.md", "--dry-run"}} {
		r := autobuild(t, repo, args...)
		require.Equal(t, 0, r.code, r.String())
		require.Contains(t, r.stdout, "Each phase's worktree gets, before its agent starts:\n  files: .env, node_modules/ (ignored in your checkout; brought in, never committed)\n  setup: echo ready\n  ports: $AUTOBUILD_PORT")
	}
	r := autobuild(t, repo, "validate", "--json", "plan.md")
	require.Equal(t, 0, r.code, r.String())
	require.Contains(t, r.stdout, `"worktree": {
    "patterns": [
      ".env",
      "node_modules/"
    ],
    "files": [
      ".env",
      "node_modules/"
    ],
    "setup": "echo ready",
    "ports": 10,
    "port_base": 41000
  }`)
	agent := agentScript(t, `echo "SECRET=1 # agent $AUTOBUILD_PHASE_ID" > .env; echo "$AUTOBUILD_PORT" > port-$AUTOBUILD_PHASE_ID.txt`)
	r = autobuild(t, repo, "plan.md", "--no-tui", "--commit=auto", "--agent", agent)
	require.Equal(t, 0, r.code, r.String())
	require.Equal(t, 1, strings.Count(r.stdout, "WORKTREES - .env, node_modules/: "), r.stdout)
	require.Contains(t, r.stdout, "PHASE 1 WORKTREE - setup: echo ready")
	env, err := os.ReadFile(filepath.Join(repo, ".env"))
	require.NoError(t, err)
	require.Equal(t, "SECRET=1\n", string(env))
	require.ElementsMatch(t, []string{"port-1.txt", "port-2.txt"}, strings.Fields(git(t, repo, "log", "--format=", "--name-only", "HEAD~2..HEAD")))
}
