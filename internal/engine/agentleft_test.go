package engine

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/plan"
)

// An agent rebases one of your branches (checked out nowhere) and stops at
// a conflict: your branch stays where it was, and the phase commits the
// files as the agent left them.
func TestARebaseOfYourBranchLeavesIt(t *testing.T) {
	t.Parallel()
	planText := onePhasePlan
	repo := gitRepo(t, planText)
	g := gitIn(t, repo)
	g("checkout", "-q", "-b", "feature")
	g("commit", "-q", "--allow-empty", "-m", "placeholder")
	g("checkout", "-q", "main")
	// feature: a commit writing c.txt
	g("checkout", "-q", "feature")
	require.NoError(t, os.WriteFile(filepath.Join(repo, "c.txt"), []byte("feature\n"), 0o644))
	g("add", "c.txt")
	g("commit", "-q", "-m", "feature c")
	g("checkout", "-q", "main")
	before := g("rev-parse", "feature")
	const agentWork = `g() { git -c user.name=a -c user.email=a@a "$@"; }; ` +
		`echo mine > c.txt && g add c.txt && g commit -qm mine && ` +
		`{ g rebase HEAD feature || true; }`
	res, err := Run(context.Background(), baseConfig(t, repo, planText, agentWork, &events{}))
	require.NoError(t, err)
	require.Equal(t, before, g("rev-parse", "feature"), "your branch feature is yours")
	require.Equal(t, "complete", string(res.Status), res.Reason)
	require.Contains(t, attemptLogs(t, repo), "the agent left HEAD on")
	require.Empty(t, g("stash", "list"))
}

// An agent checks out one of your branches and writes a file there: your
// branch stays where it was, and the phase commits what the agent left.
func TestACheckoutOfYourBranchLeavesIt(t *testing.T) {
	t.Parallel()
	planText := onePhasePlan
	repo := gitRepo(t, planText)
	runGit(t, repo, "branch", "feature")
	runGit(t, repo, "-c", "user.name=u", "-c", "user.email=u@u", "commit", "-q", "--allow-empty", "-m", "user")
	before := runGit(t, repo, "rev-parse", "feature")
	const agentWork = `git checkout -q feature && echo x > x.txt`
	res, err := Run(context.Background(), baseConfig(t, repo, planText, agentWork, &events{}))
	require.NoError(t, err)
	require.Equal(t, before, runGit(t, repo, "rev-parse", "feature"), "your branch feature is yours")
	require.Equal(t, "complete", string(res.Status), res.Reason)
	require.Equal(t, "x", runGit(t, repo, "show", "HEAD:x.txt"))
}

// A conflict left with HEAD at the base (the agent committed nothing), with
// and without a gate: the phase completes and commits the conflicted file
// as add -A would, with the agent's other work.
func TestAConflictLeftAtTheBaseIsCommitted(t *testing.T) {
	t.Parallel()
	for name, gate := range map[string]string{"no gate": "", "gate": "\n## Quality Gates\n\n- test: `true`\n"} {
		t.Run(name, func(t *testing.T) {
			planText := onePhasePlan + gate
			repo := gitRepo(t, planText)
			g := gitIn(t, repo)
			require.NoError(t, os.WriteFile(filepath.Join(repo, "c.txt"), []byte("1\n"), 0o644))
			g("add", "c.txt")
			g("commit", "-qm", "c1")
			require.NoError(t, os.WriteFile(filepath.Join(repo, "c.txt"), []byte("2\n"), 0o644))
			g("commit", "-qam", "c2")
			const agentWork = `{ git revert --no-commit HEAD~1 || true; } && git status --short && echo new > new.txt`
			res, err := Run(context.Background(), baseConfig(t, repo, planText, agentWork, &events{}))
			require.NoError(t, err)
			require.Equal(t, "complete", string(res.Status), res.Reason)
			// The revert of c1 (which made c.txt) conflicts with c2's change:
			// git leaves c2's file, which add -A stages as it is.
			require.Equal(t, "2", g("show", "HEAD:c.txt"))
			require.Equal(t, "new", g("show", "HEAD:new.txt"))
		})
	}
}

// merge --autostash stopped at a conflict, the agent's uncommitted change
// near one the merge made cleanly: the phase completes with that change in
// its commit, and nothing reaches your stash list.
func TestAnAutostashIsMergedBackEndToEnd(t *testing.T) {
	t.Parallel()
	planText := onePhasePlan
	repo := gitRepo(t, planText)
	g := gitIn(t, repo)
	require.NoError(t, os.WriteFile(filepath.Join(repo, "f.txt"), []byte("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"), 0o644))
	g("add", "f.txt")
	g("commit", "-qm", "f")
	const agentWork = `g() { git -c user.name=a -c user.email=a@a "$@"; }; ` +
		`g checkout -q -b side && sed -i 3s/.*/side3/ f.txt && echo side > c.txt && g add -A && g commit -qm side && g checkout -q - && ` +
		`echo mine > c.txt && g add c.txt && g commit -qm mine && sed -i 5s/.*/agent5/ f.txt && { g merge --autostash side || true; }`
	res, err := Run(context.Background(), baseConfig(t, repo, planText, agentWork, &events{}))
	require.NoError(t, err)
	require.Equal(t, "complete", string(res.Status), res.Reason)
	require.Empty(t, g("stash", "list"))
	require.Contains(t, g("show", "HEAD:f.txt"), "agent5")
	require.Contains(t, g("show", "HEAD:f.txt"), "side3")
	require.Contains(t, attemptLogs(t, repo), "autostashed work is merged back")
}

// Another plan file is not an edited plan: a run of plan.md does not go on
// as plan2.md, whose phases 1 and 2 would count as done because the run's
// were. Refused with or without --resume (exit 3), and nothing of plan2.md
// runs; plan.md itself still resumes.
func TestAnotherPlanFileDoesNotResumeTheRun(t *testing.T) {
	t.Parallel()
	planText := "# One\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n| 2 | 1 |\n\n## Phase 1: A\n\n## Phase 2: B\n"
	repo := gitRepo(t, planText)
	res, err := Run(context.Background(), baseConfig(t, repo, planText, `echo x > "$AUTOBUILD_PHASE_ID.txt"`, &events{}))
	require.NoError(t, err)
	require.Equal(t, "complete", string(res.Status), res.Reason)

	other := "# Two\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n| 2 | 1 |\n\n## Phase 1: Schema\n\n## Phase 2: Endpoints\n"
	require.NoError(t, os.WriteFile(filepath.Join(repo, "plan2.md"), []byte(other), 0o644))
	runGit(t, repo, "add", "plan2.md")
	runGit(t, repo, "commit", "-qm", "plan2")
	head := runGit(t, repo, "rev-parse", "HEAD")
	pl, err := plan.Parse(filepath.Join(repo, "plan2.md"), []byte(other))
	require.NoError(t, err)
	for _, resume := range []bool{false, true} {
		cfg := baseConfig(t, repo, planText, `echo x > "$AUTOBUILD_PHASE_ID.txt"`, &events{})
		cfg.Plan, cfg.Resume = pl, resume
		_, err := Run(context.Background(), cfg)
		require.Error(t, err)
		require.Equal(t, exitcode.Refused, exitcode.Of(err))
		require.ErrorContains(t, err, "of the plan plan.md, is complete; plan2.md is another plan: pass --fresh")
		require.Equal(t, head, runGit(t, repo, "rev-parse", "HEAD"), "nothing ran")
	}
	cfg := baseConfig(t, repo, planText, `echo x > "$AUTOBUILD_PHASE_ID.txt"`, &events{})
	cfg.Resume = true
	_, err = Run(context.Background(), cfg)
	require.NoError(t, err, "the run's own plan resumes")
}

// onePhasePlan is a plan of one phase with an empty section.
const onePhasePlan = "# One\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n\n## Phase 1: Only\n"

// gitIn runs git in repo (gitRepo gave it an identity).
func gitIn(t *testing.T, repo string) func(args ...string) string {
	return func(args ...string) string { return runGit(t, repo, args...) }
}

// A halted run with another plan file: the message says how to go on with
// the run's own plan, or to start over.
func TestAnotherPlanFileDoesNotResumeAHaltedRun(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t, onePhasePlan)
	res, err := Run(context.Background(), baseConfig(t, repo, onePhasePlan, `exit 1`, &events{}))
	require.NoError(t, err)
	require.Equal(t, "halted", string(res.Status))
	other := strings.Replace(onePhasePlan, "# One", "# Other", 1)
	require.NoError(t, os.WriteFile(filepath.Join(repo, "other.md"), []byte(other), 0o644))
	runGit(t, repo, "add", "other.md")
	runGit(t, repo, "commit", "-qm", "other")
	pl, err := plan.Parse(filepath.Join(repo, "other.md"), []byte(other))
	require.NoError(t, err)
	cfg := baseConfig(t, repo, onePhasePlan, `true`, &events{})
	cfg.Plan, cfg.Resume = pl, true
	_, err = Run(context.Background(), cfg)
	require.Equal(t, exitcode.Refused, exitcode.Of(err))
	require.ErrorContains(t, err, "is of the plan plan.md, not other.md: to go on with it, run `cd "+repo+" && autobuild plan.md --resume`")
}

// Whatever an agent does to HEAD and its branch (deletes it, renames it,
// leaves an orphan), the phase completes with the files it left.
func TestWhatAnAgentDoesToItsBranchStillCommits(t *testing.T) {
	t.Parallel()
	for name, agentWork := range map[string]string{
		"branch deleted, HEAD on it": `git update-ref -d "$(git symbolic-ref HEAD)" && echo x > x.txt`,
		"orphan":                     `git checkout -q --orphan foo && echo x > x.txt`,
		"detached, branch deleted":   `b=$(git symbolic-ref --short HEAD) && git checkout -q --detach && git branch -q -D "$b" && echo x > x.txt`,
		"renamed":                    `git branch -m renamed && echo x > x.txt`,
		"orphan committed":           `git checkout -q --orphan foo && git rm -rq --cached . && echo x > x.txt && git add x.txt && git -c user.name=a -c user.email=a@a commit -qm o`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			repo := gitRepo(t, onePhasePlan)
			res, err := Run(context.Background(), baseConfig(t, repo, onePhasePlan, agentWork, &events{}))
			require.NoError(t, err)
			require.Equal(t, "complete", string(res.Status), res.Reason)
			require.Equal(t, "x", runGit(t, repo, "show", "HEAD:x.txt"))
		})
	}
}

// An autostash kept on a branch (merged back with conflicts) outlives the
// run's clean-up when it completes.
func TestAKeptAutostashOutlivesTheRun(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t, onePhasePlan)
	branchOther(t, repo, "c.txt", "other\n")
	const agentWork = `g() { git -c user.name=a -c user.email=a@a "$@"; }; ` +
		`echo mine > c.txt && g add c.txt && g commit -qm mine && echo "mine, more" > c.txt && { g merge --autostash --no-edit other || true; }`
	res, err := Run(context.Background(), baseConfig(t, repo, onePhasePlan, agentWork, &events{}))
	require.NoError(t, err)
	logs := attemptLogs(t, repo)
	require.Equal(t, "complete", string(res.Status), res.Reason)
	m := regexp.MustCompile(`kept on branch (\S+)`).FindStringSubmatch(logs)
	require.NotNil(t, m)
	require.NoError(t, exec.Command("git", "-C", repo, "rev-parse", "--verify", "-q", m[1]).Run(), "the log says the autostash is kept on %s", m[1])
}

// A binary autostash git cannot merge back fails the attempt and is kept
// on a branch, which the halt's resume (and the run it completes) leaves.
func TestAKeptBinaryAutostashOutlivesTheResume(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t, onePhasePlan)
	branchOther(t, repo, "b.bin", "\x00other\x00", "c.txt", "other\n")
	const agentWork = `g() { git -c user.name=a -c user.email=a@a "$@"; }; ` +
		`printf 'mine\n' > c.txt && g add c.txt && g commit -qm mine && printf '\000agent\000' > b.bin && g add b.bin && { g merge --autostash --no-edit other || true; }`
	res, err := Run(context.Background(), baseConfig(t, repo, onePhasePlan, agentWork, &events{}))
	require.NoError(t, err)
	logs := attemptLogs(t, repo)
	m := regexp.MustCompile(`kept on branch (\S+?)[ )]`).FindStringSubmatch(logs + res.Reason)
	require.NotNil(t, m, logs)
	require.NoError(t, exec.Command("git", "-C", repo, "rev-parse", "--verify", "-q", m[1]).Run(), "kept on %s after the halt", m[1])
	cfg := baseConfig(t, repo, onePhasePlan, `echo fine > fine.txt`, &events{})
	cfg.Resume = true
	res, err = Run(context.Background(), cfg)
	require.NoError(t, err)
	require.Equal(t, "complete", string(res.Status), res.Reason)
	require.NoError(t, exec.Command("git", "-C", repo, "rev-parse", "--verify", "-q", m[1]).Run(), "kept on %s after the resume", m[1])
}

// branchOther makes a branch "other" in repo whose commit writes the files
// (name, content pairs), and goes back to main.
func branchOther(t *testing.T, repo string, nameContent ...string) {
	t.Helper()
	g := gitIn(t, repo)
	g("checkout", "-q", "-b", "other")
	for i := 0; i+1 < len(nameContent); i += 2 {
		require.NoError(t, os.WriteFile(filepath.Join(repo, nameContent[i]), []byte(nameContent[i+1]), 0o644))
		g("add", nameContent[i])
	}
	g("commit", "-qm", "other")
	g("checkout", "-q", "main")
}
