package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/state"
)

// Gates that stage or commit, through the real executor and landing: what
// lands is the agent's work, with nothing of the gates' and nothing a
// gate's commit swallowed lost.
func TestGatesThatStageOrCommitLeaveTheAgentsWork(t *testing.T) {
	t.Parallel()
	const agentWork = `echo new > new.txt && echo changed > keep.txt && git rm -q seed.txt`
	for name, gate := range map[string]string{
		"stages debris":       "echo debris > debris.txt && git add debris.txt",
		"stages all":          "echo debris > debris.txt && git add -A",
		"commits debris":      "echo debris > debris.txt && git add debris.txt && git commit -qm gate",
		"commits all":         "echo debris > debris.txt && git add -A && git commit -qm gate",
		"commits agent work":  "git add -A && git commit -qm gate",
		"resets index":        "git reset -q",
		"rewrites agent file": "echo wen > new.txt && git add new.txt",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			repo, spy := runSeededOnePhase(t, "\n## Quality Gates\n\n- test: `"+gate+"`\n", agentWork)
			require.Len(t, spy.got, 1)
			require.Equal(t, "keep.txt\nnew.txt\nplan.md", runGit(t, repo, "ls-tree", "-r", "--name-only", "HEAD"))
			require.Equal(t, "new", runGit(t, repo, "show", "HEAD:new.txt"))
			require.Equal(t, "changed", runGit(t, repo, "show", "HEAD:keep.txt"))
		})
	}
}

// No gates, a submodule marked ignore=all in .gitmodules: the agent's move
// of it lands (git status would not list it; git add -A stages it).
func TestASubmoduleMoveLandsWhenStatusIgnoresIt(t *testing.T) {
	t.Parallel()
	planText := "# One\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n\n## Phase 1: Only\n"
	repo := gitRepo(t, planText)
	origin := filepath.Join(t.TempDir(), "origin")
	require.NoError(t, os.MkdirAll(origin, 0o755))
	runGit(t, origin, "init", "-q", "-b", "main")
	runGit(t, origin, "-c", "user.name=x", "-c", "user.email=x@x", "commit", "-q", "--allow-empty", "-m", "one")
	runGit(t, origin, "-c", "user.name=x", "-c", "user.email=x@x", "commit", "-q", "--allow-empty", "-m", "two")
	runGit(t, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", origin, "sub")
	runGit(t, repo, "config", "-f", ".gitmodules", "submodule.sub.ignore", "all")
	runGit(t, repo, "add", "-A")
	runGit(t, repo, "commit", "-qm", "sub")
	before := runGit(t, repo, "ls-tree", "HEAD", "sub")
	const agentWork = `git -c protocol.file.allow=always submodule update -q --init && git -C sub checkout -q HEAD~1 && echo x > x.txt`
	cfg := baseConfig(t, repo, planText, agentWork, &events{})
	res, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	require.Equal(t, "x", runGit(t, repo, "show", "HEAD:x.txt"))
	require.NotEqual(t, before, runGit(t, repo, "ls-tree", "HEAD", "sub"), "the agent's submodule move landed")
}

// The plan restored (edited, committed, deleted, renamed), no gates: the
// commit from known paths holds the rest of the work and the plan as it was.
func TestThePlanIsRestoredAndTheRestLands(t *testing.T) {
	t.Parallel()
	for name, work := range map[string]string{
		"edited":                 `echo tick >> plan.md && echo y > y.txt`,
		"edited, committed":      `echo tick >> plan.md && echo y > y.txt && git add -A && git commit -qm agent && echo z > z.txt`,
		"deleted":                `rm plan.md && echo y > y.txt`,
		"renamed":                `git mv plan.md moved.md && echo y > y.txt`,
		"edited, staged, edited": `echo a >> plan.md && git add plan.md && echo b >> plan.md && echo y > y.txt`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			planText := "# One\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n\n## Phase 1: Only\n"
			repo := gitRepo(t, planText)
			cfg := baseConfig(t, repo, planText, work, &events{})
			res, err := Run(context.Background(), cfg)
			require.NoError(t, err)
			require.Equal(t, state.RunComplete, res.Status, res.Reason)
			require.Equal(t, strings.TrimSpace(planText), runGit(t, repo, "show", "HEAD:plan.md"))
			require.Equal(t, "y", runGit(t, repo, "show", "HEAD:y.txt"))
		})
	}
}

// A retry that continues in the same worktree commits both attempts' work.
func TestARetryInTheSameWorktreeCommitsBothAttempts(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct{ gates, work string }{
		"gate failed first": {"\n## Quality Gates\n\n- test: `echo debris > debris.txt && test -f second.txt`\n",
			`if [ -f first.txt ]; then echo 2 > second.txt; git rm -q -r --cached first.txt 2>/dev/null; else echo 1 > first.txt; git add first.txt; fi`},
		"agent failed first, no gates": {"",
			`if [ -f first.txt ]; then echo 2 > second.txt; else echo 1 > first.txt; git add first.txt; git commit -qm agent; exit 3; fi`},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			planText := "# One\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n\n## Phase 1: Only\n" + c.gates
			repo := gitRepo(t, planText)
			cfg := baseConfig(t, repo, planText, c.work, &events{})
			res, err := Run(context.Background(), cfg)
			require.NoError(t, err)
			require.Equal(t, state.RunComplete, res.Status, res.Reason)
			require.Equal(t, "first.txt\nplan.md\nsecond.txt", runGit(t, repo, "ls-tree", "-r", "--name-only", "HEAD"))
		})
	}
}

// An agent that leaves a merge half done (resolved and staged, not
// committed): the merge is forgotten, its changes land as the phase's one
// commit, and the log says so.
func TestAMergeTheAgentLeftInProgressIsForgotten(t *testing.T) {
	t.Parallel()
	planText := "# One\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n\n## Phase 1: Only\n"
	repo := gitRepo(t, planText)
	const agentWork = `git checkout -q -b side && echo o > o.txt && git add o.txt && git -c user.name=a -c user.email=a@a commit -qm side && ` +
		`git checkout -q - && git merge -q --no-commit --no-ff side`
	res, err := Run(context.Background(), baseConfig(t, repo, planText, agentWork, &events{}))
	require.NoError(t, err)
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	require.Equal(t, "o", runGit(t, repo, "show", "HEAD:o.txt"))
	require.Len(t, strings.Fields(runGit(t, repo, "log", "-1", "--format=%P")), 1, "one commit on the line, not the agent's merge")
	all := attemptLogs(t, repo)
	require.Contains(t, all, "the agent left a merge in progress")
}

// An agent that commits, then stops a merge at a conflict: the conflicted
// file is staged as it is (for the gates to judge), the commits are folded,
// and the phase is one commit; it used to fail as autobuild's own error,
// the reset refusing to run in the middle of a merge.
func TestAConflictTheAgentLeftIsStagedAndFolded(t *testing.T) {
	t.Parallel()
	planText := "# One\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n\n## Phase 1: Only\n"
	repo := gitRepo(t, planText)
	const agentWork = `g() { git -c user.name=a -c user.email=a@a "$@"; }; ` +
		`g checkout -q -b side && echo side > c.txt && g add c.txt && g commit -qm side && g checkout -q - && ` +
		`echo mine > c.txt && g add c.txt && g commit -qm mine && { g merge -q side || true; }`
	res, err := Run(context.Background(), baseConfig(t, repo, planText, agentWork, &events{}))
	require.NoError(t, err)
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	require.Len(t, strings.Fields(runGit(t, repo, "log", "-1", "--format=%P")), 1)
	require.Contains(t, runGit(t, repo, "show", "HEAD:c.txt"), "<<<<<<<", "the conflict as the agent left it")
	all := attemptLogs(t, repo)
	require.Contains(t, all, "the agent left c.txt in conflict; staged as they are")
	require.Contains(t, all, "the agent left a merge in progress")
}

// attemptLogs is every attempt log of the run in repo, one after another.
func attemptLogs(t *testing.T, repo string) string {
	t.Helper()
	logs, err := filepath.Glob(filepath.Join(repo, ".autobuild", "logs", "*"))
	require.NoError(t, err)
	var all strings.Builder
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		all.Write(b)
	}
	return all.String()
}
