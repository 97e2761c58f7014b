package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/failreport"
)

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

// Completed phases land in the order they complete, not in plan order: 1A
// waits until 1B's commit is on the branch before it finishes.
func TestCommitsLandInCompletionOrder(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, twoParallel)
	agent := agentScript(t, `if [ "$AUTOBUILD_PHASE_ID" = 1a ]; then
  i=0
  until git -C `+repo+` log '--format=%(trailers:key=Autobuild-Phase,valueonly)' main | grep -qx 1b; do
    i=$((i+1)); [ $i -gt 600 ] && { echo "1B never landed"; exit 1; }; sleep 0.1
  done
fi
echo "$AUTOBUILD_PHASE_ID" > "$AUTOBUILD_PHASE_ID.txt"
`)
	r := autobuild(t, repo, "plan.md", "--no-tui", "--commit=auto", "--max-parallel", "2", "--agent", agent)
	require.Equal(t, 0, r.code, r.String())

	log := git(t, repo, "log", "--reverse", "--format=%s|%(trailers:key=Autobuild-Phase,valueonly,separator=)", "HEAD~2..HEAD")
	require.Equal(t, "feat(right): right|1b\nfeat(left): left|1a", log)
	body := git(t, repo, "log", "-1", "--format=%B")
	require.Equal(t, "feat(left): left\n\nPhase 1A of the plan.\n\nAutobuild-Phase: 1a", body)
	require.Equal(t, "1b.txt", git(t, repo, "show", "--format=", "--name-only", "HEAD~1"), "one commit per phase, with its own files")
}

// A gate that hangs uses up the attempt's time: the attempt is a timeout
// (not a test failure), the retry gets twice the time, and the gate's
// processes, background ones included, are gone afterwards.
func TestHangingGateIsATimeoutAndLeavesNoProcess(t *testing.T) {
	t.Parallel()
	pids := filepath.Join(t.TempDir(), "pids")
	gate := "sleep 301 & echo $! >> " + pids + "; echo $$ >> " + pids + "; exec sleep 300"
	plan := strings.Replace(fivePhases, "`! grep -rn BROKEN src`", "`"+gate+"`", 1)
	repo := newRepo(t, plan)
	calls := filepath.Join(t.TempDir(), "calls")
	r := autobuild(t, repo, "plan.md", "--no-tui", "--commit=auto", "--phase-timeout", "3s", "--agent", workingAgent(t, calls, ""))
	require.Equal(t, 1, r.code, r.String())
	require.Contains(t, r.stdout, "PHASE 0 FAILED - timeout")

	p := loadPhase(t, repo, "0")
	require.Len(t, p.Attempts, 2, "a timeout is retried once")
	for _, a := range p.Attempts {
		require.Equal(t, failreport.Timeout, a.Error.Type)
		require.Equal(t, "test", a.Error.Gate, "the report names the gate that hung")
		require.Contains(t, a.Error.Message, "the test gate")
	}
	require.Contains(t, readString(t, filepath.Join(repo, p.Attempts[0].LogPath)), "time limit 3s\n")
	require.Contains(t, readString(t, filepath.Join(repo, p.Attempts[1].LogPath)), "time limit 6s\n", "a timed-out retry gets twice the time")

	ids := strings.Fields(readString(t, pids))
	// Two processes per attempt, and two for the check of the run's base
	// before the first agent (the gate hangs there too; it is stopped at
	// the time limit and, naming no failing test, is no red base).
	require.Len(t, ids, 6, "two processes per attempt and two for the base check")
	for _, s := range ids {
		pid, err := strconv.Atoi(s)
		require.NoError(t, err)
		require.False(t, alive(pid), "process %d of the gate is still alive", pid)
	}
}

// An agent that prints more than the log cap: the log keeps the head and
// the tail, and says what it left out.
func TestAttemptLogIsCappedKeepingHeadAndTail(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 20 MB")
	}
	t.Parallel()
	plan := "# One\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n\n## Phase 1: Chatty\n\n## Quality Gates\n\n- test: `true`\n"
	repo := newRepo(t, plan)
	agent := agentScript(t, `echo FIRST-LINE
yes 0123456789012345678901234567890123456789012345678901234567890123456789 | head -c 20000000
echo LAST-LINE
`)
	r := autobuild(t, repo, "plan.md", "--no-tui", "--commit=auto", "--agent", agent)
	require.Equal(t, 0, r.code, r.String())
	path := filepath.Join(repo, loadPhase(t, repo, "1").Attempts[0].LogPath)
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.LessOrEqual(t, fi.Size(), int64(16<<20+4096), "capped at 16 MiB")
	log := readString(t, path)
	require.Contains(t, log[:4096], "FIRST-LINE")
	tail := log[len(log)-4096:]
	require.Contains(t, tail, "LAST-LINE")
	require.Contains(t, tail, "# autobuild: gate test passed", "what comes after the agent is kept too")
	require.Regexp(t, regexp.MustCompile(`\.\.\. \[\d+ bytes omitted\] \.\.\.`), log)
}
