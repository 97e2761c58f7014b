package engine

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/wtenv"
)

// A setup command that fails is environment_setup: the agent never
// starts, the run halts without the retry, and the report holds the
// command's own output and how to run it by hand.
func TestFailingSetupIsEnvironmentSetup(t *testing.T) {
	t.Parallel()
	marker := filepath.Join(t.TempDir(), "agent-ran")
	res, repo, sink := runPlanWith(t, onePhase, "touch "+marker, func(c *Config) {
		c.Worktree = wtenv.Config{Setup: `echo "installing"; echo "npm ERR! code E404 greet@9.9.9 not found" >&2; exit 3`}
	})
	require.Equal(t, state.RunHalted, res.Status)
	_, err := os.Stat(marker)
	require.True(t, os.IsNotExist(err), "the agent never ran")

	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Len(t, p.Attempts, 1, "not retried")
	rep := p.Attempts[0].Error
	require.Equal(t, failreport.EnvironmentSetup, rep.Type)
	require.False(t, rep.Retryable)
	require.False(t, rep.Type.ConsumesRetry(), "not charged to the agent")
	require.Contains(t, rep.Message, "setup command")
	require.Contains(t, rep.Message, "exit 3")
	require.Contains(t, rep.Message, "npm ERR! code E404", "the line that says what went wrong")
	require.Contains(t, rep.Details, "npm ERR! code E404")
	require.Contains(t, rep.Fix, "cd .autobuild/worktrees/phase-1 && echo")
	log, err := os.ReadFile(filepath.Join(repo, p.Attempts[0].LogPath))
	require.NoError(t, err)
	require.Contains(t, string(log), "installing")
	require.Contains(t, string(log), "# autobuild: setup failed (exit 3)")
	var setupLine bool
	for _, e := range sink.list {
		setupLine = setupLine || (e.Kind == event.WorktreeReady && strings.HasPrefix(e.Line, "setup: "))
	}
	require.True(t, setupLine, "a worktree_ready event names the setup")
}

// Phases running at once get distinct ports, in the agent's and in the
// gates' environment; setup runs in each worktree with them, and teardown
// when the phase has landed.
func TestParallelPhasesGetDistinctPorts(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	planText := "# P\n\n| Phase | Depends On | Parallel With |\n|---|---|---|\n| 1 | - | 2, 3 |\n| 2 | - | 1, 3 |\n| 3 | - | 1, 2 |\n\n" +
		"## Phase 1: A\n\n## Phase 2: B\n\n## Phase 3: C\n\n## Quality Gates\n\n- test: `echo $AUTOBUILD_PORT > " + out + "/gate-$AUTOBUILD_PORT`\n"
	agentShell := `echo "$AUTOBUILD_PORT $AUTOBUILD_PORT_RANGE" > ` + out + `/agent-$AUTOBUILD_PHASE_ID; test -f ` + out + `/setup-$AUTOBUILD_PORT || exit 9; echo x > f-$AUTOBUILD_PHASE_ID.txt; sleep 1`
	res, _, _ := runPlanWith(t, planText, agentShell, func(c *Config) {
		c.MaxParallel = 3
		c.Worktree = wtenv.Config{Setup: "touch " + out + "/setup-$AUTOBUILD_PORT", Teardown: "echo $AUTOBUILD_PHASE_ID >> " + out + "/teardown", PortBase: 43100, Ports: 5}
	})
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	ports := map[string]bool{}
	for _, id := range []string{"1", "2", "3"} {
		b, err := os.ReadFile(filepath.Join(out, "agent-"+id))
		require.NoError(t, err)
		port, rng, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
		require.NotContains(t, ports, port, "phase %s shares a port", id)
		ports[port] = true
		_, err = os.Stat(filepath.Join(out, "gate-"+port))
		require.NoError(t, err, "the gate saw the phase's port")
		require.Regexp(t, `^431\d\d-431\d\d$`, rng)
	}
	require.Len(t, ports, 3)
	td, err := os.ReadFile(filepath.Join(out, "teardown"))
	require.NoError(t, err)
	require.ElementsMatch(t, []string{"1", "2", "3"}, strings.Fields(string(td)))
}

// nodeProject is a monorepo whose package packages/app has a test gate
// `node --test` that needs a package npm installed into its ignored
// node_modules and the ignored .env. (A node_modules at the repository's
// root would be found from .autobuild/worktrees/ too, by node's walk up
// the folders; a package's own is not.)
func nodeProject(t *testing.T, planText string) string {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip(tool + " is not installed")
		}
	}
	pkg := t.TempDir()
	writeTestFile(t, filepath.Join(pkg, "src", "package.json"), `{"name":"greet","version":"1.0.0","main":"index.js"}`+"\n")
	writeTestFile(t, filepath.Join(pkg, "src", "index.js"), "module.exports = (name) => `hello ${name}`;\n")
	npm(t, filepath.Join(pkg, "src"), "pack", "--pack-destination", pkg)

	repo := gitRepo(t, planText)
	app := filepath.Join(repo, "packages", "app")
	writeTestFile(t, filepath.Join(repo, ".gitignore"), "node_modules/\n.env\n")
	writeTestFile(t, filepath.Join(app, "package.json"), `{"name":"app","version":"1.0.0","private":true}`+"\n")
	writeTestFile(t, filepath.Join(app, "test", "app.test.js"), `const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const greet = require('greet');
test('greets from .env', () => {
  const name = /NAME=(\w+)/.exec(fs.readFileSync('.env', 'utf8'))[1];
  assert.strictEqual(greet(name), 'hello world');
});
`)
	runGit(t, repo, "add", "-A")
	runGit(t, repo, "commit", "-q", "-m", "the node project")
	npm(t, app, "install", "--no-save", "--no-package-lock", "--no-audit", "--no-fund", filepath.Join(pkg, "greet-1.0.0.tgz"))
	writeTestFile(t, filepath.Join(app, ".env"), "NAME=world\n")
	return repo
}

func npm(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("npm", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "npm %s: %s", strings.Join(args, " "), out)
}

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
}

const nodePlan = "# Node\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n| 2 | 1 |\n\n## Phase 1: One\n\n## Phase 2: Two\n\n## Quality Gates\n\n- test: `cd packages/app && node --test`\n"

// With [worktree] copy the phases of a Node project pass their gate, the
// agent's edit of .env stays in its worktree, and nothing copied is ever
// committed; the second phase takes over the first one's worktree and
// keeps its node_modules.
func TestNodeProjectWithCopiedFiles(t *testing.T) {
	t.Parallel()
	planText := nodePlan
	repo := nodeProject(t, planText)
	sink := &events{}
	cfg := baseConfig(t, repo, planText, `echo "NAME=world # edited by $AUTOBUILD_PHASE_ID" > packages/app/.env; echo done > out-$AUTOBUILD_PHASE_ID.txt`, sink)
	cfg.Worktree = wtenv.Config{Copy: []string{".env", "node_modules"}}
	res, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	require.Equal(t, state.RunComplete, res.Status, res.Reason)

	env, err := os.ReadFile(filepath.Join(repo, "packages", "app", ".env"))
	require.NoError(t, err)
	require.Equal(t, "NAME=world\n", string(env), "the agent's edit never reaches your .env")
	files := runGit(t, repo, "log", "--format=", "--name-only", "HEAD~2..HEAD")
	require.ElementsMatch(t, []string{"out-1.txt", "out-2.txt"}, strings.Fields(files))
	require.Empty(t, runGit(t, repo, "status", "--porcelain"))

	var choice string
	var lines []string
	for _, e := range sink.list {
		if e.Kind == event.WorktreeReady && e.PhaseID == "" {
			require.Empty(t, choice, "the choice is said once")
			choice = e.Line
		} else if e.Kind == event.WorktreeReady {
			lines = append(lines, e.Line)
		}
	}
	require.Contains(t, choice, "packages/app/.env, packages/app/node_modules/: ")
	require.Len(t, lines, 2)
	require.Contains(t, lines[1], "up to date", "the reused worktree kept its files: %s", lines[1])

	// The new worktree got them while git wrote its tracked files; the
	// reused one (brought up to date after its checkout) did not.
	besides := 0
	for _, id := range []phaseid.ID{"1", "2"} {
		p, err := state.Open(repo).LoadPhase(id)
		require.NoError(t, err)
		log, err := os.ReadFile(filepath.Join(repo, p.Attempts[0].LogPath))
		require.NoError(t, err)
		logs, _ := os.ReadDir(filepath.Join(repo, ".autobuild", "logs"))
		var names []string
		for _, l := range logs {
			names = append(names, l.Name())
		}
		require.Contains(t, string(log), "# autobuild: worktree files (", "phase %s, attempts %+v, logs %v", id, p.Attempts, names)
		if strings.Contains(string(log), "put in while git wrote the worktree's tracked files") {
			besides++
		}
	}
	require.Equal(t, 1, besides, "the new worktree's files are put in beside its checkout")
}

// Without them the gate fails as today: Cannot find module.
func TestNodeProjectWithoutCopiedFiles(t *testing.T) {
	t.Parallel()
	planText := nodePlan
	repo := nodeProject(t, planText)
	res, err := Run(context.Background(), baseConfig(t, repo, planText, "echo done > out.txt", &events{}))
	require.NoError(t, err)
	require.Equal(t, state.RunHalted, res.Status)
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.NotNil(t, p.Error)
	require.Contains(t, p.Error.GateOutput+p.Error.BlockedOn, "Cannot find module 'greet'")
}

// A setup that leaves a file git does not ignore fails before the agent:
// the phase's commit would take the file as the agent's work.
func TestSetupLeavingUnignoredFilesFails(t *testing.T) {
	t.Parallel()
	res, repo, _ := runPlanWith(t, onePhase, "echo work > work.txt", func(c *Config) {
		c.Worktree = wtenv.Config{Setup: "echo generated > generated.txt"}
	})
	require.Equal(t, state.RunHalted, res.Status)
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Equal(t, failreport.EnvironmentSetup, p.Attempts[0].Error.Type)
	require.Contains(t, p.Attempts[0].Error.Message, "generated.txt")
	require.Equal(t, "1", runGit(t, repo, "rev-list", "--count", "HEAD"), "nothing landed")
}

// Phases that ran side by side land verified on their combination (the
// line stays green): the verification worktree gets the files too, and
// so does the check of the run's base, or both would fail on a missing
// module.
func TestNodeProjectVerifiedTogetherWithCopiedFiles(t *testing.T) {
	t.Parallel()
	planText := "# Node\n\n| Phase | Depends On | Parallel With |\n|---|---|---|\n| 1 | - | 2 |\n| 2 | - | 1 |\n\n## Phase 1: One\n\n## Phase 2: Two\n\n## Quality Gates\n\n- test: `cd packages/app && node --test`\n"
	repo := nodeProject(t, planText)
	// The two agents end together (each waits for the other's mark), so
	// their phases are verified together even on a loaded machine.
	bar := t.TempDir()
	cfg := baseConfig(t, repo, planText, `echo done > out-$AUTOBUILD_PHASE_ID.txt; touch `+bar+`/$AUTOBUILD_PHASE_ID; `+
		`n=0; while { [ ! -e `+bar+`/1 ] || [ ! -e `+bar+`/2 ]; } && [ $n -lt 600 ]; do sleep 0.05; n=$((n+1)); done`, &events{})
	cfg.MaxParallel = 2
	cfg.Worktree = wtenv.Config{Copy: []string{".env", "node_modules"}}
	res, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	log, err := os.ReadFile(state.Open(repo).VerifyLogPath())
	require.NoError(t, err)
	require.Contains(t, string(log), "checking the run's base")
	require.Contains(t, string(log), "verifying tree")
	require.NotContains(t, string(log), "Cannot find module")
}
