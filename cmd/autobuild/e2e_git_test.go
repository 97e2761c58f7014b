package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/state"
)

const twoParallel = "# Two in parallel\n\n| Phase | Name | Depends On |\n|---|---|---|\n| 1A | Left | - |\n| 1B | Right | - |\n\n" +
	"## Phase 1A: Left\n\n## Phase 1B: Right\n\n## Quality Gates\n\n- test: `true`\n"

// repoWithShared adds a twelve-line shared.txt to a fresh repository.
func repoWithShared(t *testing.T, plan string) string {
	repo := newRepo(t, plan)
	var lines []string
	for i := 1; i <= 12; i++ {
		lines = append(lines, "line "+string(rune('a'+i-1)))
	}
	writeFile(t, filepath.Join(repo, "shared.txt"), strings.Join(lines, "\n")+"\n")
	git(t, repo, "add", "shared.txt")
	git(t, repo, "commit", "-q", "-m", "shared file")
	return repo
}

func TestOverlappingEditsAreAFileConflict(t *testing.T) {
	t.Parallel()
	repo := repoWithShared(t, twoParallel)
	agent := agentScript(t, `case "$AUTOBUILD_PHASE_ID" in
1a) sed -i '3,5s/.*/left edit/' shared.txt ;;
1b) sed -i '4,6s/.*/right edit/' shared.txt ;;
esac`)
	r := autobuild(t, repo, "plan.md", "--no-tui", "--commit=auto", "--agent", agent, "--max-parallel", "2")
	require.Equal(t, 1, r.code, r.String())
	require.Contains(t, r.stdout, "file_conflict")

	// Whichever landed second carries the conflict, naming both ranges.
	var failed, landed *state.Phase
	for _, id := range []string{"1a", "1b"} {
		p := loadPhase(t, repo, id)
		if p.Status == state.PhaseFailed {
			failed = p
		} else {
			landed = p
		}
	}
	require.NotNil(t, failed, r.String())
	require.NotNil(t, landed)
	require.Equal(t, failreport.FileConflict, failed.Error.Type)
	require.False(t, failed.Error.Retryable)
	require.Len(t, failed.Attempts, 1, "a conflict is not retried")
	require.Contains(t, failed.Error.Details, "shared.txt")
	require.Contains(t, failed.Error.Details, "3-5")
	require.Contains(t, failed.Error.Details, "4-6")
	require.Contains(t, failed.Error.Message, landed.DisplayID)
	require.Empty(t, git(t, repo, "status", "--porcelain"), "nothing was half merged")
	require.Contains(t, failed.Error.SuggestedActions[0], "resume")

	// The conflicting attempt's work is kept, though it was committed on its
	// branch before the conflict showed.
	require.NotEmpty(t, failed.Attempts[0].DiffPath)
	diff, err := os.ReadFile(filepath.Join(repo, failed.Attempts[0].DiffPath))
	require.NoError(t, err)
	require.Regexp(t, `\+(left|right) edit`, string(diff))

	// Resume runs the failed phase again on top of the one that landed.
	r = autobuild(t, repo, "plan.md", "--no-tui", "--resume", "--agent", agentScript(t, `echo "$AUTOBUILD_PHASE_ID" > "$AUTOBUILD_PHASE_ID.txt"`))
	require.Equal(t, 0, r.code, r.String())
	require.Equal(t, map[string]int{"1a": 1, "1b": 1}, phaseCommits(t, repo))
	require.Equal(t, "* main", git(t, repo, "branch"), "no phase or integration branch is left")
}

// Two phases changing different lines of one file in message-only mode:
// commits.sh must give each phase a commit of its own change only, and run
// through to a clean tree.
func TestMessageOnlyScriptWhenPhasesShareAFile(t *testing.T) {
	t.Parallel()
	repo := repoWithShared(t, twoParallel)
	head := git(t, repo, "rev-parse", "HEAD")
	agent := agentScript(t, `case "$AUTOBUILD_PHASE_ID" in
1a) sed -i '2s/.*/left edit/' shared.txt; echo left > left.txt ;;
1b) sed -i '10s/.*/right edit/' shared.txt ;;
esac`)
	r := autobuild(t, repo, "plan.md", "--no-tui", "--commit=message-only", "--agent", agent)
	require.Equal(t, 0, r.code, r.String())
	require.Equal(t, head, git(t, repo, "rev-parse", "HEAD"))

	cmd := exec.Command("sh", filepath.Join(repo, ".autobuild", "commits.sh"))
	cmd.Dir = repo
	cmd.Env = command(repo).Env
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	require.Empty(t, git(t, repo, "status", "--porcelain"), "the script commits everything")
	require.Equal(t, map[string]int{"1a": 1, "1b": 1}, phaseCommits(t, repo), "each commit names its phase")
	for _, c := range []string{"HEAD", "HEAD~1"} {
		diff := git(t, repo, "show", "--format=%(trailers:key=Autobuild-Phase,valueonly)", c)
		switch {
		case strings.HasPrefix(diff, "1a"):
			require.Contains(t, diff, "+left edit")
			require.Contains(t, diff, "+left\n")
			require.NotContains(t, diff, "right edit", "only phase 1A's change")
		case strings.HasPrefix(diff, "1b"):
			require.Contains(t, diff, "+right edit")
			require.NotContains(t, diff, "left", "only phase 1B's change")
		default:
			t.Fatalf("commit %s names no phase:\n%s", c, diff)
		}
	}
}
