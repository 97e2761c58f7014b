package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func repoRoot(t *testing.T) string {
	wd, err := os.Getwd()
	require.NoError(t, err)
	return filepath.Join(wd, "..", "..")
}

// fullPlanOut is what validate prints for testdata/plans/full.md: the
// batches with ids, names, dependencies, parallel groups, and the phase the
// plan marks complete said so.
const fullPlanOut = `Superplan: Team Notes Service (testdata/plans/full.md)
6 phases in 4 batches; quality gates: build: go build ./...; lint: go vet ./...; format: test -z "$(gofmt -l .)"; test: go test ./...

Batch 1
  0  Bootstrap  depends on: -  (complete in the plan: not run)

Batch 2
  1  Domain Model  depends on: 0

Batch 3 (in parallel)
  2A  Backend API  depends on: 1  parallel with 2B, 2C
  2B  Web Client   depends on: 1  parallel with 2A, 2C
  2C  CLI          depends on: 1  parallel with 2A, 2B

Batch 4
  3  Integration  depends on: 2A, 2B, 2C
`

// trimLines drops trailing spaces from every line: column padding is not
// what these tests are about.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

func TestValidateValidPlan(t *testing.T) {
	t.Parallel()
	r := autobuild(t, repoRoot(t), "validate", "testdata/plans/full.md")
	require.Equal(t, 0, r.code, r.String())
	require.Equal(t, fullPlanOut, trimLines(r.stdout))
	require.Empty(t, r.stderr)
	// --dry-run prints the same, with the flag before or after the plan.
	for _, args := range [][]string{
		{"--dry-run", "testdata/plans/full.md"},
		{"testdata/plans/full.md", "--dry-run"},
	} {
		d := autobuild(t, repoRoot(t), args...)
		require.Equal(t, 0, d.code, "%q: %s", args, d)
		require.Equal(t, r.stdout, d.stdout, "%q", args)
		require.Empty(t, d.stderr, "%q", args)
	}
}

// A plan as saved by an editor on Windows (byte order mark, CRLF line
// ends) validates like the same plan with LF line ends.
func TestValidateCRLFPlan(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(filepath.Join(repoRoot(t), "testdata", "plans", "real", "superplan.md"))
	require.NoError(t, err)
	dir := t.TempDir()
	lf := filepath.Join(dir, "lf.md")
	crlf := filepath.Join(dir, "crlf.md")
	require.NoError(t, os.WriteFile(lf, src, 0o644))
	require.NoError(t, os.WriteFile(crlf, append([]byte("\xef\xbb\xbf"), strings.ReplaceAll(string(src), "\n", "\r\n")...), 0o644))

	want := autobuild(t, dir, "validate", "lf.md")
	require.Equal(t, 0, want.code, want.String())
	got := autobuild(t, dir, "validate", "crlf.md")
	require.Equal(t, 0, got.code, got.String())
	require.Equal(t, strings.Replace(want.stdout, "(lf.md)", "(crlf.md)", 1), got.stdout)
	require.Empty(t, got.stderr)
	require.Contains(t, trimLines(got.stdout), "Batch 1\n  0  Bootstrap (if needed)  depends on: -  (skipped in the plan: not run)\n")
	require.Contains(t, got.stdout, "Batch 3 (in parallel)\n  2A  Invite API       depends on: 1  parallel with 2B, 2C\n")
}

func TestValidateInvalidPlanListsEveryProblem(t *testing.T) {
	t.Parallel()
	const path = "testdata/plans/invalid/multi-problem.md"
	r := autobuild(t, repoRoot(t), "validate", path)
	require.Equal(t, 2, r.code, r.String())
	require.Empty(t, r.stdout)
	require.Equal(t, path+`:28: warning: section "Phase 8" is not in the phase table; it runs all the same, as a phase of its own
`+path+`:6: unknown dependency "9" in phase 2
`+path+`:6: phase 2 runs in parallel with 3, but 3 depends on 2
`+path+`:8: duplicate phase id "3" (first defined at line 7)
`+path+`:9: circular_dependency: 4 → 5 → 4
`+path+`:14: unknown quality gate kind "deploy" (want build, lint, format, typecheck or test)
`+path+`:20: phase 2: section says Depends On "1" but the table says "1, 9" (line 6)
autobuild: `+path+` is not a valid plan (circular_dependency): nothing was run
`, r.stderr)

	// The run command checks the plan the same way, flags after the plan.
	d := autobuild(t, repoRoot(t), path, "--dry-run")
	require.Equal(t, 2, d.code, d.String())
	require.Equal(t, r.stderr, d.stderr)
}

func TestHelpAndVersion(t *testing.T) {
	t.Parallel()
	r := autobuild(t, t.TempDir(), "--help")
	require.Equal(t, 0, r.code)
	require.Contains(t, r.stdout, "autobuild demo")
	require.Contains(t, r.stdout, "--commit")
	r = autobuild(t, t.TempDir(), "--version")
	require.Equal(t, 0, r.code)
	require.Contains(t, r.stdout, "autobuild version")
}

// The demo is what a new user sees first: it must really run, retry 2B and
// leave a repository whose own tests pass.
func TestDemoRunsToCompletion(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := autobuild(t, dir, "demo", "--no-tui", "--dir", dir)
	require.Equal(t, 0, r.code, r.String())
	for _, want := range []string{"PHASE 2B FAILED - test_failure", "PHASE 2B RETRYING", "PHASE 2B COMPLETE",
		"AUTOBUILD COMPLETE", "The demo repository is"} {
		require.Contains(t, r.stdout, want)
	}
	repo := filepath.Join(dir, "calc")
	require.Equal(t, map[string]int{"0": 1, "1": 1, "2a": 1, "2b": 1, "2c": 1, "3": 1}, phaseCommits(t, repo))
	require.Empty(t, git(t, repo, "status", "--porcelain"))
}

func TestDemoHaltThenFixThenResume(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := autobuild(t, dir, "demo", "--no-tui", "--halt", "--dir", dir)
	require.Equal(t, 1, r.code, r.String())
	require.Contains(t, r.stdout, "AUTOBUILD HALTED")
	require.Contains(t, r.stdout, "Blocked by: 2B")
	repo := filepath.Join(dir, "calc")
	fix, err := os.ReadFile(filepath.Join(dir, "fix", "format.go"))
	require.NoError(t, err)
	writeFile(t, filepath.Join(repo, "calc", "format.go"), string(fix))
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "fix: write Format")
	r = autobuild(t, repo, "plan.md", "--no-tui", "--resume", "--agent", "sim", "--scenario", filepath.Join(dir, "scenario.json"))
	require.Equal(t, 0, r.code, r.String())
	require.Contains(t, r.stdout, "AUTOBUILD COMPLETE")
}

// validate and --dry-run name the gates autobuild.toml sets when the plan
// has no Quality Gates section, as the run takes them.
func TestValidateNamesTheGatesOfAutobuildToml(t *testing.T) {
	t.Parallel()
	repo := newRepo(t, "# P\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n\n## Phase 1: A\n\n- [ ] x\n")
	writeFile(t, filepath.Join(repo, "autobuild.toml"), "[gates]\ntest = \"test -e out.txt\"\n")
	r := autobuild(t, repo, "validate", "plan.md")
	require.Equal(t, 0, r.code, r.String())
	require.Contains(t, r.stdout, "quality gates (from autobuild.toml): test: test -e out.txt")
	r = autobuild(t, repo, "plan.md", "--dry-run")
	require.Contains(t, r.stdout, "quality gates (from autobuild.toml): test: test -e out.txt")
	r = autobuild(t, repo, "validate", "--json", "plan.md")
	require.Equal(t, 0, r.code, r.String())
	require.Contains(t, r.stdout, `"gates_from": "autobuild.toml"`)
	require.Contains(t, r.stdout, `"command": "test -e out.txt"`)
}
