package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// fivePhases is 0 → 1 → (2A, 2B) → 3, with a gate that fails while any
// file under src/ says BROKEN.
const fivePhases = "# Five phases\n\n" +
	"| Phase | Name | Depends On |\n|---|---|---|\n" +
	"| 0 | Bootstrap | - |\n| 1 | Core | 0 |\n| 2A | Api service | 1 |\n| 2B | Web ui | 1 |\n| 3 | Integration | 2A, 2B |\n\n" +
	"## Phase 0: Bootstrap\n\n- [ ] lay out src/\n\n## Phase 1: Core\n\n## Phase 2A: Api service\n\n## Phase 2B: Web ui\n\n## Phase 3: Integration\n\n" +
	"## Quality Gates\n\n- test: `! grep -rn BROKEN src`\n"

// workingAgent writes one file per phase and logs each call to calls.
func workingAgent(t *testing.T, calls string, extra string) string {
	return agentScript(t, `f=src/$AUTOBUILD_PHASE_ID/work.txt
mkdir -p "$(dirname "$f")"
echo "$AUTOBUILD_PHASE_ID $AUTOBUILD_ATTEMPT" >> `+calls+`
`+extra+`
echo "phase $AUTOBUILD_PHASE_ID" > "$f"
echo "wrote $f"
`)
}

func countCalls(t *testing.T, path, phase string) int {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return 0
	}
	require.NoError(t, err)
	n := 0
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, phase+" ") {
			n++
		}
	}
	return n
}

// haltingAgent breaks phase 2A on every attempt unless the repository holds
// FIXED, which is what a person commits to fix it.
// commitFix is the person's fix for haltingAgent's phase 2A, committed on
// the branch as a person would before --resume.
func commitFix(t *testing.T, repo string) {
	t.Helper()
	writeFile(t, filepath.Join(repo, "FIXED"), "yes\n")
	git(t, repo, "add", "FIXED")
	git(t, repo, "commit", "-q", "-m", "fix: what 2A needed")
}

// haltedRun runs the five-phase plan in a new repository with an agent
// that fails phase 2A twice, under the given commit mode: the run halts.
// It returns the repository, the agent's call log and the agent.
func haltedRun(t *testing.T, mode string) (repo, calls, agent string) {
	t.Helper()
	repo = newRepo(t, fivePhases)
	calls = filepath.Join(t.TempDir(), "calls")
	agent = haltingAgent(t, calls)
	r := autobuild(t, repo, "plan.md", "--no-tui", "--commit="+mode, "--agent", agent)
	require.Equal(t, 1, r.code, r.String())
	return repo, calls, agent
}

// resumeRerunsNothing resumes a halted run of the five-phase plan, which
// must complete without running again the phases that had completed.
func resumeRerunsNothing(t *testing.T, repo, calls, agent string) result {
	t.Helper()
	r := autobuild(t, repo, "plan.md", "--no-tui", "--resume", "--agent", agent)
	require.Equal(t, 0, r.code, r.String())
	for _, id := range []string{"0", "1", "2b"} {
		require.Equal(t, 1, countCalls(t, calls, id), "phase %s is not re-run", id)
	}
	return r
}

func haltingAgent(t *testing.T, calls string) string {
	return workingAgent(t, calls, `if [ "$AUTOBUILD_PHASE_ID" = 2a ] && [ ! -f FIXED ]; then echo BROKEN > "$f"; echo "could not fix it"; exit 0; fi`)
}

func TestJSONOutputIsOneEventPerLine(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, fivePhases)
	calls := filepath.Join(t.TempDir(), "calls")
	r := autobuild(t, repo, "plan.md", "--json", "--commit=auto", "--agent", workingAgent(t, calls, ""))
	require.Equal(t, 0, r.code, r.String())
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	require.Contains(t, lines[0], `"event":"run_started"`)
	require.Contains(t, lines[len(lines)-1], `"event":"run_complete"`)
	require.Contains(t, r.stdout, `"event":"phase_output"`)
	for _, l := range lines {
		require.True(t, json.Valid([]byte(l)), "not one JSON object: %q", l)
	}
}

// On a halt, --json still prints nothing but events: the failures carry
// their report, the blocked phase what blocks it, and the last event says
// why the run halted.
func TestJSONOutputOfAHaltedRun(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, fivePhases)
	calls := filepath.Join(t.TempDir(), "calls")
	r := autobuild(t, repo, "plan.md", "--json", "--commit=auto", "--agent", haltingAgent(t, calls))
	require.Equal(t, 1, r.code, r.String())
	type ev struct {
		Event     string             `json:"event"`
		Time      time.Time          `json:"time"`
		DisplayID string             `json:"display_id"`
		Attempt   int                `json:"attempt"`
		Line      string             `json:"line"`
		BlockedBy []string           `json:"blocked_by"`
		Failure   *failreport.Report `json:"failure"`
	}
	var events []ev
	for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var e ev
		require.NoError(t, json.Unmarshal([]byte(l), &e), "not one JSON object: %q", l)
		require.False(t, e.Time.IsZero(), l)
		events = append(events, e)
	}
	var failed []ev
	var blocked *ev
	for i, e := range events {
		switch e.Event {
		case "phase_failed":
			failed = append(failed, e)
		case "phase_blocked":
			blocked = &events[i]
		case "phase_integrated":
			// haltingAgent's phases that complete change files: each landed
			// as a commit, and the event says so (not "no changes").
			require.True(t, strings.HasPrefix(e.Line, "committed "), "%s: %q", e.DisplayID, e.Line)
		}
	}
	require.Len(t, failed, 2)
	for i, e := range failed {
		require.Equal(t, "2A", e.DisplayID)
		require.Equal(t, i+1, e.Attempt)
		require.NotNil(t, e.Failure)
		require.Equal(t, failreport.TestFailure, e.Failure.Type)
	}
	require.NotNil(t, blocked)
	require.Equal(t, "3", blocked.DisplayID)
	require.Equal(t, []string{"2A"}, blocked.BlockedBy)
	last := events[len(events)-1]
	require.Equal(t, "run_halted", last.Event)
	require.Equal(t, "Phase 2A failed after retry (test_failure)", last.Line)
	require.NotContains(t, r.stdout, "AUTOBUILD HALTED", "no summary box on the JSON stream")
}

// In the modes that leave the branch alone, --resume after a fix replays
// the run's commits on top of it. A kill -9 in the middle of that replay
// loses none of them: the next resume starts the replay over.
func TestKill9DuringReplayOnAFix(t *testing.T) {
	t.Parallel()
	repo, calls, agent := haltedRun(t, "message-only")
	commitFix(t, repo)

	crash := command(repo, "plan.md", "--no-tui", "--resume", "--agent", agent)
	crash.Env = append(crash.Env, "AUTOBUILD_CRASH_AT=replayed:1")
	out, _ := crash.CombinedOutput()
	require.Equal(t, -1, crash.ProcessState.ExitCode(), "killed in the middle of the replay:\n%s", out)

	resumeRerunsNothing(t, repo, calls, agent)
	requireEveryPhasesWork(t, repo)
}

// Uncommitted changes stop a run; when they are the earlier run's own work,
// the refusal says so and what to do. (The message-only case is
// testdata/script/dirty_tree_own_work.txtar.)
func TestDirtyTreeLeftByTheRunItself(t *testing.T) {
	// A kill -9 between bringing the run's changes onto the branch and
	// committing them (--commit=single) leaves them staged, the run
	// "running" with every phase complete.
	t.Run("single, killed while landing", func(t *testing.T) {
		t.Parallel()
		repo := newRepo(t, fivePhases)
		calls := filepath.Join(t.TempDir(), "calls")
		agent := workingAgent(t, calls, "")
		require.Equal(t, 0, autobuild(t, repo, "plan.md", "--no-tui", "--commit=single", "--agent", agent).code)
		git(t, repo, "reset", "-q", "--soft", "HEAD~1")
		store := state.Open(repo)
		run := loadRun(t, repo)
		run.Status, run.Finished, run.FinalCommit = state.RunRunning, nil, ""
		require.NoError(t, store.SaveRun(run))

		r := autobuild(t, repo, "plan.md", "--no-tui", "--agent", agent)
		require.Equal(t, 3, r.code, r.String())
		require.Contains(t, r.stderr, "stopped while it brought the finished run's changes onto your branch")
		require.Contains(t, r.stderr, "git stash -u")

		git(t, repo, "stash", "-q", "-u")
		r = autobuild(t, repo, "plan.md", "--no-tui", "--agent", agent)
		require.Equal(t, 0, r.code, r.String())
		require.Equal(t, 1, countCalls(t, calls, "2a"), "no phase runs again")
		require.Equal(t, "2", git(t, repo, "rev-list", "--count", "HEAD"), "one commit for the run")
		require.Empty(t, git(t, repo, "status", "--porcelain"))
		for _, id := range []string{"0", "1", "2a", "2b", "3"} {
			require.FileExists(t, filepath.Join(repo, "src", id, "work.txt"))
		}
	})
}

// --max-parallel bounds how many phases run at once: with 1, the three
// phases of one batch never overlap (each agent holds a directory as a
// token while it works and notes when it finds it taken).
func TestMaxParallelOne(t *testing.T) {
	t.Parallel()
	plan := "# Three\n\n| Phase | Name | Depends On |\n|---|---|---|\n| 1A | A | - |\n| 1B | B | - |\n| 1C | C | - |\n\n" +
		"## Phase 1A: A\n\n## Phase 1B: B\n\n## Phase 1C: C\n\n## Quality Gates\n\n- test: `true`\n"
	repo := newRepo(t, plan)
	dir := t.TempDir()
	agent := agentScript(t, `if mkdir `+dir+`/token 2>/dev/null; then :; else echo "$AUTOBUILD_PHASE_ID" >> `+dir+`/overlaps; fi
echo "$AUTOBUILD_PHASE_ID" >> `+dir+`/ran
sleep 0.3
rmdir `+dir+`/token 2>/dev/null
exit 0`)
	r := autobuild(t, repo, "plan.md", "--no-tui", "--commit=auto", "--max-parallel", "1", "--agent", agent)
	require.Equal(t, 0, r.code, r.String())
	require.NoFileExists(t, filepath.Join(dir, "overlaps"), "two phases ran at once")
	ran, err := os.ReadFile(filepath.Join(dir, "ran"))
	require.NoError(t, err)
	require.ElementsMatch(t, []string{"1a", "1b", "1c"}, strings.Fields(string(ran)))
}

// In auto mode your branch is the run's line; when a session ends the
// line's branch takes it up. A landed phase reset away from your branch
// comes back on resume: it is not run again, and it is not lost.
func TestResumePutsBackALandedPhaseYouResetAway(t *testing.T) {
	t.Parallel()
	repo, calls, agent := haltedRun(t, "auto")
	run := loadRun(t, repo)
	head := git(t, repo, "rev-parse", "HEAD")
	require.Equal(t, head, git(t, repo, "rev-parse", state.RefsOf(*run).Integration()), "the line's branch took up your branch")
	require.Equal(t, head, run.IntegrationCommit)

	git(t, repo, "reset", "-q", "--hard", "HEAD~1")
	commitFix(t, repo)
	r := autobuild(t, repo, "plan.md", "--no-tui", "--resume", "--agent", agent)
	require.Equal(t, 3, r.code, "your fix is on top of a branch that lost a landed phase: %s", r.String())
	require.Contains(t, r.stderr, "have diverged")

	git(t, repo, "reset", "-q", "--hard", "HEAD~1") // the fix goes: phase 2A fails again
	r = autobuild(t, repo, "plan.md", "--no-tui", "--resume", "--agent", agent)
	require.Equal(t, 1, r.code, r.String())
	require.Equal(t, head, git(t, repo, "rev-parse", "HEAD"), "the landed phase is back on your branch")
	require.Equal(t, 1, countCalls(t, calls, "2b"), "and was not run again")

	commitFix(t, repo)
	resumeRerunsNothing(t, repo, calls, agent)
	require.Equal(t, map[string]int{"0": 1, "1": 1, "2a": 1, "2b": 1, "3": 1}, phaseCommits(t, repo), "every phase once")
}
