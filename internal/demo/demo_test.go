package demo

import (
	"cmp"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent/sim"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
)

func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
}

// git runs git in dir and returns its trimmed output.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %s: %s", strings.Join(args, " "), out)
	return strings.TrimSpace(string(out))
}

func setup(t *testing.T, halt bool) (Project, string) {
	t.Helper()
	needGit(t)
	dir := t.TempDir()
	p, err := Setup(dir, halt)
	require.NoError(t, err)
	return p, dir
}

func TestSetupRepository(t *testing.T) {
	t.Parallel()
	p, dir := setup(t, false)
	require.Equal(t, Project{Repo: filepath.Join(dir, "calc"), Plan: "plan.md",
		Scenario: filepath.Join(dir, "scenario.json")}, p)

	// One commit on main, holding every file Setup wrote: nothing is left
	// untracked, and nothing is ignored by accident.
	require.Equal(t, "main", git(t, p.Repo, "symbolic-ref", "--short", "HEAD"))
	require.Equal(t, "1", git(t, p.Repo, "rev-list", "--count", "HEAD"))
	require.Equal(t, "chore: start the calculator with its plan", git(t, p.Repo, "log", "-1", "--format=%s"))
	// The demo's own identity, unless the environment names one (as CI
	// does): git lets GIT_AUTHOR_* win over configuration, and so should we.
	name := cmp.Or(os.Getenv("GIT_AUTHOR_NAME"), "autobuild demo")
	email := cmp.Or(os.Getenv("GIT_AUTHOR_EMAIL"), "demo@autobuild.invalid")
	require.Equal(t, name+" <"+email+">", git(t, p.Repo, "log", "-1", "--format=%an <%ae>"))
	// Only .env is ignored, on purpose: [worktree] copy brings it in.
	require.Equal(t, "!! .env", git(t, p.Repo, "status", "--porcelain", "--ignored", "--untracked-files=all"))
	require.Equal(t, []string{".gitignore", "README.md", "autobuild.toml", "calc/doc.go", "calc/env_test.go", "go.mod", "plan.md"},
		strings.Split(git(t, p.Repo, "ls-files"), "\n"))

	// The run's commits need an identity on a machine without one.
	require.Equal(t, "autobuild demo", git(t, p.Repo, "config", "--local", "user.name"))
	require.Equal(t, "demo@autobuild.invalid", git(t, p.Repo, "config", "--local", "user.email"))

	for name, src := range map[string]string{"go.mod": "go.mod.txt", "calc/doc.go": "doc.go.txt", "plan.md": "plan.md"} {
		got, err := os.ReadFile(filepath.Join(p.Repo, name))
		require.NoError(t, err)
		require.Equal(t, mustRead(src), string(got), name)
	}
	readme, err := os.ReadFile(filepath.Join(p.Repo, "README.md"))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(readme), "# calc\n"), string(readme))

	// The scenario and the hand-written fix live outside the repository.
	fix, err := os.ReadFile(filepath.Join(dir, "fix", "format.go"))
	require.NoError(t, err)
	require.Equal(t, mustRead("format.go.txt"), string(fix))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	require.Equal(t, []string{"calc", "fix", "scenario.json"}, names)
}

func TestSetupPlan(t *testing.T) {
	t.Parallel()
	p, _ := setup(t, false)
	pl, err := plan.ParseFile(filepath.Join(p.Repo, p.Plan))
	require.NoError(t, err)
	require.Empty(t, pl.Warnings)
	require.Equal(t, "Calculator: from library to command line", pl.Title)

	var ids []phaseid.ID
	for _, ph := range pl.Phases {
		ids = append(ids, ph.ID)
		require.False(t, ph.Done(), "phase %s runs", ph.ID)
		require.NotEmpty(t, ph.Files, "phase %s names its files", ph.ID)
	}
	require.Equal(t, []phaseid.ID{"0", "1", "2a", "2b", "2c", "3"}, ids)

	batches := pl.Batches()
	require.Len(t, batches, 4)
	third := batches[2]
	require.Len(t, third.Groups, 1, "2A, 2B and 2C run in parallel")
	var parallel []phaseid.Display
	for _, ph := range third.Groups[0] {
		parallel = append(parallel, ph.DisplayID)
	}
	require.Equal(t, []phaseid.Display{"2A", "2B", "2C"}, parallel)

	var gates []string
	for _, g := range pl.Gates {
		gates = append(gates, g.Kind+": "+g.Command)
	}
	require.Equal(t, []string{"build: go build ./...", `format: test -z "$(gofmt -l .)"`, "test: go test ./..."}, gates)
}

// loadScenario reads the scenario Setup wrote, the way the simulated agent
// does.
func loadScenario(t *testing.T, halt bool) (*sim.Scenario, Project, string) {
	t.Helper()
	p, dir := setup(t, halt)
	sc, err := sim.LoadScenario(p.Scenario)
	require.NoError(t, err)
	return sc, p, dir
}

// writes lists the files an attempt writes, with their content.
func writes(a sim.Attempt) map[string]string {
	out := map[string]string{}
	for _, s := range a.Steps {
		if s.Kind == "write" {
			out[s.Write] = s.Content
		}
	}
	return out
}

func TestScenario(t *testing.T) {
	t.Parallel()
	sc, p, _ := loadScenario(t, false)
	pl, err := plan.ParseFile(filepath.Join(p.Repo, p.Plan))
	require.NoError(t, err)

	// Every phase of the plan is scripted, and nothing else.
	var keys []phaseid.ID
	for id := range sc.Phases {
		keys = append(keys, id)
	}
	slices.Sort(keys)
	require.Equal(t, []phaseid.ID{"0", "1", "2a", "2b", "2c", "3"}, keys)
	require.NotNil(t, sc.Default)

	for _, ph := range pl.Phases {
		attempts := sc.Phases[ph.ID]
		if ph.ID == "2b" {
			require.Len(t, attempts, 2, "2B fails once, then succeeds")
		} else {
			require.Len(t, attempts, 1, "phase %s succeeds at once", ph.ID)
		}
		// The attempts write the files the plan names (a retry continues
		// in the first attempt's worktree).
		written := map[string]bool{}
		for _, a := range attempts {
			require.Zero(t, a.Exit, "phase %s: the gates fail it, not the agent", ph.ID)
			for path := range writes(a) {
				written[path] = true
			}
		}
		for _, f := range ph.Files {
			require.True(t, written[f], "phase %s names %s but its attempts do not write it", ph.ID, f)
		}
	}

	first, second := writes(sc.Phases["2b"][0]), writes(sc.Phases["2b"][1])
	require.Equal(t, mustRead("format_buggy.go.txt"), first["calc/format.go"])
	require.Equal(t, mustRead("format.go.txt"), second["calc/format.go"])
	require.Equal(t, sc.Phases["2b"][1], sc.Pick("2b", 3), "a third attempt would replay the second")
}

func TestScenarioHalt(t *testing.T) {
	t.Parallel()
	sc, _, _ := loadScenario(t, true)
	attempts := sc.Phases["2b"]
	require.Len(t, attempts, 2)
	for i, a := range attempts {
		w := writes(a)
		require.NotContains(t, w, "calc/format.go", "attempt %d leaves Format unwritten", i+1)
		require.Equal(t, mustRead("format_test.go.txt"), w["calc/format_test.go"], "attempt %d", i+1)
	}
	// Only 2B differs from the normal demo.
	normal, _, _ := loadScenario(t, false)
	for id, list := range normal.Phases {
		if id != "2b" {
			require.Equal(t, list, sc.Phases[id], id)
		}
	}
}

func TestScenarioJSON(t *testing.T) {
	t.Parallel()
	for _, halt := range []bool{false, true} {
		data, err := json.Marshal(Scenario(halt))
		require.NoError(t, err)
		_, err = sim.ParseScenario(data)
		require.NoError(t, err, "halt=%v", halt)
	}
}

// TestDemoGates plays the scenario's file writes in the repository, phase
// by phase, and runs the plan's quality gates after each: what the demo
// claims (2B's first attempt breaks the tests, its retry fixes them; with
// --halt, fix/format.go is the fix) holds for the real files.
func TestDemoGates(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go tool")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not installed")
	}
	t.Parallel()

	t.Run("retry fixes 2B", func(t *testing.T) {
		t.Parallel()
		sc, p, _ := loadScenario(t, false)
		playPhases(t, p.Repo, sc, "0", "1")
		gates(t, p.Repo, true)
		play(t, p.Repo, sc.Phases["2b"][0])
		out := gates(t, p.Repo, false)
		require.Contains(t, out, "TestFormat")
		play(t, p.Repo, sc.Phases["2b"][1])
		gates(t, p.Repo, true)
		playPhases(t, p.Repo, sc, "2a", "2c", "3")
		gates(t, p.Repo, true)
		require.Equal(t, "1 + 2 * 3 = 7\n", goRun(t, p.Repo, "./cmd/calc", "1 + 2 * 3"))
	})

	t.Run("halt, fix by hand, resume", func(t *testing.T) {
		t.Parallel()
		sc, p, dir := loadScenario(t, true)
		playPhases(t, p.Repo, sc, "0", "1", "2a", "2c")
		gates(t, p.Repo, true)
		play(t, p.Repo, sc.Phases["2b"]...)
		gates(t, p.Repo, false)
		fix, err := os.ReadFile(filepath.Join(dir, "fix", "format.go"))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(p.Repo, "calc", "format.go"), fix, 0o644))
		gates(t, p.Repo, true)
		playPhases(t, p.Repo, sc, "3")
		gates(t, p.Repo, true)
	})
}

// playPhases applies every attempt of each phase, in order (a retry
// continues in the first attempt's worktree).
func playPhases(t *testing.T, repo string, sc *sim.Scenario, ids ...phaseid.ID) {
	t.Helper()
	for _, id := range ids {
		require.Contains(t, sc.Phases, id)
		play(t, repo, sc.Phases[id]...)
	}
}

// play applies the attempts' steps that change files to repo.
func play(t *testing.T, repo string, attempts ...sim.Attempt) {
	t.Helper()
	for _, a := range attempts {
		for _, s := range a.Steps {
			switch s.Kind {
			case "say", "sleep":
			case "write":
				path := filepath.Join(repo, filepath.FromSlash(s.Write))
				require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
				require.NoError(t, os.WriteFile(path, []byte(s.Content), 0o644))
			default:
				t.Fatalf("play: step kind %q is not simulated here", s.Kind)
			}
		}
	}
}

// gates runs the demo plan's gates in repo, as sh -c like the engine, and
// requires them all to pass (or one to fail); it returns their output.
func gates(t *testing.T, repo string, pass bool) string {
	t.Helper()
	var all strings.Builder
	for _, g := range []string{"go build ./...", `test -z "$(gofmt -l .)"`, "go test ./..."} {
		cmd := exec.Command("sh", "-c", g)
		cmd.Dir = repo
		cmd.Env = goEnv()
		out, err := cmd.CombinedOutput()
		all.Write(out)
		if err != nil {
			require.False(t, pass, "gate %q failed:\n%s", g, out)
			return all.String()
		}
	}
	require.True(t, pass, "every gate passed:\n%s", all.String())
	return all.String()
}

func goRun(t *testing.T, repo string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"run"}, args...)...)
	cmd.Dir = repo
	cmd.Env = goEnv()
	out, err := cmd.Output()
	require.NoError(t, err, "go run %v", args)
	return string(out)
}

// goEnv keeps the sample module on its own: no workspace, no toolchain
// download.
func goEnv() []string {
	return append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=")
}
