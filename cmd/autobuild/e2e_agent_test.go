package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/failure"
)

// dumpingAgent records, per phase and attempt, where it ran and what it got:
// its working directory, branch, AUTOBUILD_* variables, stdin and the file
// named by $AUTOBUILD_PROMPT_FILE. Then it writes one file for its phase.
func dumpingAgent(t *testing.T, out string) string {
	return agentScript(t, `n="$AUTOBUILD_PHASE_ID-$AUTOBUILD_ATTEMPT"
pwd -P > `+out+`/pwd-$n
git rev-parse --abbrev-ref HEAD > `+out+`/branch-$n
env | grep '^AUTOBUILD_' | sort > `+out+`/env-$n
cat > `+out+`/stdin-$n
cp "$AUTOBUILD_PROMPT_FILE" `+out+`/promptfile-$n
echo "$AUTOBUILD_PHASE_ID" > "own-$AUTOBUILD_PHASE_ID.txt"
`)
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

// docs/agents.md: the agent runs in the phase's worktree, on its branch, with the
// prompt on stdin and in $AUTOBUILD_PROMPT_FILE and the AUTOBUILD_* variables;
// the prompt holds the phase's section, the gates, the siblings and the rules.
func TestAgentRunsInItsWorktreeWithPromptAndEnv(t *testing.T) {
	t.Parallel()
	plan := strings.Replace(twoParallel, "## Phase 1A: Left\n", "## Phase 1A: Left\n\n- [ ] write the left-hand side\n", 1)
	repo := newRepo(t, plan)
	out := t.TempDir()
	r := autobuild(t, repo, "plan.md", "--no-tui", "--commit=auto", "--agent", dumpingAgent(t, out))
	require.Equal(t, 0, r.code, r.String())

	root, err := filepath.EvalSymlinks(repo)
	require.NoError(t, err)
	wt := filepath.Join(root, ".autobuild", "worktrees", "phase-1a")
	require.Equal(t, wt+"\n", readString(t, filepath.Join(out, "pwd-1a-1")))
	require.Equal(t, "autobuild/"+loadRun(t, repo).RunID+"/phase-1a\n", readString(t, filepath.Join(out, "branch-1a-1")))

	env := readString(t, filepath.Join(out, "env-1a-1"))
	promptFile := filepath.Join(root, ".autobuild", "prompts", "phase-1a.attempt-1.md")
	for _, want := range []string{"AUTOBUILD_ATTEMPT=1\n", "AUTOBUILD_MAX_ATTEMPTS=2\n", "AUTOBUILD_PHASE_ID=1a\n",
		"AUTOBUILD_PLAN=" + filepath.Join(root, "plan.md") + "\n", "AUTOBUILD_PROMPT_FILE=" + promptFile + "\n"} {
		require.Contains(t, env, want)
	}

	prompt := readString(t, filepath.Join(out, "stdin-1a-1"))
	require.Equal(t, prompt, readString(t, filepath.Join(out, "promptfile-1a-1")), "the same prompt on stdin and in the file")
	for _, want := range []string{
		"## Phase 1A: Left\n\n- [ ] write the left-hand side", // the phase's own section
		"- test: `true`",    // the gates
		"- Phase 1B: Right", // the sibling running alongside
		"Do not commit",     // the rules
		"Do not edit the plan (`plan.md`)",
		"This is attempt 1 of 2.",
	} {
		require.Contains(t, prompt, want)
	}
	require.NotContains(t, prompt, "Previous attempt failed")
	require.NotContains(t, prompt, "## Phase 1B: Right", "another phase's section is not in the prompt")

	// .autobuild/ stays out of git by itself, and nothing of the phases is left.
	require.Contains(t, readString(t, filepath.Join(repo, ".git", "info", "exclude")), "/.autobuild\n")
	require.Empty(t, git(t, repo, "status", "--porcelain", "--ignored=no"))
	require.Equal(t, 1, strings.Count(git(t, repo, "worktree", "list"), "\n")+1, "only the main work tree is left")
	require.Equal(t, "* main", git(t, repo, "branch"))
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
		require.Equal(t, failure.Timeout, a.Error.Type)
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
