package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// hostileBytes are what a plan or an agent could use to drive the terminal
// that shows autobuild's output: OSC 52 (clipboard write), OSC 0 (window
// title), CSI 2J (clear screen), a carriage return, NUL, invalid UTF-8.
var hostileBytes = []string{"\x1b]52;", "\x1b]0;", "\x1b[2J", "\r", "\x00", "\xff"}

func requireClean(t *testing.T, what, s string) {
	t.Helper()
	for _, h := range hostileBytes {
		require.NotContains(t, s, h, "%s carries %q:\n%q", what, h, s)
	}
}

// Nothing an agent prints reaches the terminal, the execution log or the
// commit subject unescaped: its commit_message with OSC 52 and a screen
// clear, and output lines with OSC 0, NUL, CR and invalid UTF-8 under -v.
func TestAgentBytesNeverReachTheTerminalOrCommitRaw(t *testing.T) {
	t.Parallel()
	plan := "# T\x1b]0;title\x07itle\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n\n## Phase 1: One\n\n## Quality Gates\n\n- test: `true`\n"
	repo := newRepo(t, plan)
	agent := agentScript(t, `echo hi > f.txt
printf 'out \033]0;pwned\007 \000 nul \377 bad\rover\n'
printf '{"status":"complete","commit_message":"feat: ok\\u001b]52;c;ZWNobyBwd25lZA==\\u0007 \\u001b[2Jdone"}\n'
`)
	res := autobuild(t, repo, "plan.md", "--commit=auto", "--no-tui", "-v", "--agent", agent)
	require.Equal(t, 0, res.code, res.String())
	requireClean(t, "stdout", res.stdout)
	requireClean(t, "stderr", res.stderr)
	subject := git(t, repo, "log", "-1", "--format=%B")
	requireClean(t, "the commit message", subject)
	require.True(t, strings.HasPrefix(subject, "feat: ok"), subject)
	log, err := os.ReadFile(filepath.Join(repo, ".autobuild", "logs", "execution.log"))
	require.NoError(t, err)
	requireClean(t, "execution.log", string(log))
	st := autobuild(t, repo, "status")
	requireClean(t, "status", st.stdout)
	require.Contains(t, st.stdout, "feat: ok")
}
