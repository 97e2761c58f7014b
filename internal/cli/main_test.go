package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// plans is the repository's plan fixtures, seen from this package.
const plans = "../../testdata/plans"

// run calls Main with the arguments and returns its exit code and output.
func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	// The test binary is no autobuild a user could type: the printed
	// commands name the installed one.
	code = Main(args, Streams{In: strings.NewReader(""), Out: &out, Err: &errOut, self: launcher{words: "autobuild"}})
	return code, out.String(), errOut.String()
}

func TestMainVersion(t *testing.T) {
	t.Parallel()
	code, out, errOut := run(t, "--version")
	require.Equal(t, 0, code)
	require.Equal(t, "autobuild version "+version()+"\n", out)
	require.Empty(t, errOut)
	require.NotEmpty(t, version())
}

func TestMainHelp(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{}, {"--help"}, {"-h"}} {
		code, out, errOut := run(t, args...)
		require.Equal(t, 0, code, "%q", args)
		require.Contains(t, out, "Usage:\n  autobuild PLAN.md [flags]", "%q", args)
		require.Contains(t, out, "validate", "%q", args)
		require.NotContains(t, out, "sim-agent", "the simulated agent's command is hidden")
		require.Empty(t, errOut)
	}
}

func TestMainUsageErrors(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "missing.md")
	tests := []struct {
		args   []string
		stderr string // a substring of stderr
	}{
		{[]string{"--bogus"}, "autobuild: unknown flag: --bogus (see autobuild --help)\n"},
		{[]string{"plan.md", "--max-parallel=many"}, `autobuild: invalid argument "many" for "--max-parallel" flag`},
		{[]string{"validate", "--bogus", "plan.md"}, "autobuild: unknown flag: --bogus"},
		{[]string{"a.md", "b.md"}, "autobuild: one plan at a time: got 2 arguments ([a.md b.md])\n"},
		{[]string{"validate"}, "autobuild: validate takes one plan file (got 0 arguments); see autobuild validate --help\n"},
		{[]string{"validate", "a.md", "b.md"}, "validate takes one plan file (got 2 arguments)"},
		{[]string{"validate", missing}, "autobuild: read plan: open " + missing},
		{[]string{"status", "a", "b"}, "autobuild: accepts at most 1 arg(s), received 2\n"},
		{[]string{"no-such-command"}, "autobuild: unknown command \"no-such-command\", and there is no plan file of that name"},
	}
	for _, tt := range tests {
		code, out, errOut := run(t, tt.args...)
		require.Equal(t, exitcode.Usage, code, "%q: %s", tt.args, errOut)
		require.Contains(t, errOut, tt.stderr, "%q", tt.args)
		require.Equal(t, 1, strings.Count(errOut, "\n"), "%q: one line: %q", tt.args, errOut)
		require.Empty(t, out, "%q", tt.args)
	}
}

const fullPlan = "Superplan: Team Notes Service (../../testdata/plans/full.md)\n" +
	"6 phases in 4 batches; quality gates: build: go build ./...; lint: go vet ./...; format: test -z \"$(gofmt -l .)\"; test: go test ./...\n" +
	"\n" +
	"Batch 1\n" +
	"  0  Bootstrap  depends on: -  (complete in the plan: not run)\n" +
	"\n" +
	"Batch 2\n" +
	"  1  Domain Model  depends on: 0\n" +
	"\n" +
	"Batch 3 (in parallel)\n" +
	"  2A  Backend API  depends on: 1  parallel with 2B, 2C\n" +
	"  2B  Web Client   depends on: 1  parallel with 2A, 2C\n" +
	"  2C  CLI          depends on: 1  parallel with 2A, 2B\n" +
	"\n" +
	"Batch 4\n" +
	"  3  Integration  depends on: 2A, 2B, 2C\n"

func TestMainValidateValid(t *testing.T) {
	t.Parallel()
	code, out, errOut := run(t, "validate", plans+"/full.md")
	require.Equal(t, 0, code, errOut)
	require.Equal(t, fullPlan, out)
	require.Empty(t, errOut)

	code, out, errOut = run(t, "validate", plans+"/minimal.md")
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "Minimal plan (../../testdata/plans/minimal.md)\n"+
		"2 phases in 2 batches; quality gates: detected from the repository at run time\n"+
		"\nBatch 1\n  1  Hello  depends on: -\n"+
		"\nBatch 2\n  2  World  depends on: 1\n", out)
	require.Empty(t, errOut)

	// messy.md has no Parallel With column: a batch's phases run together.
	code, out, errOut = run(t, "validate", plans+"/messy.md")
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "10 phases in 6 batches")
	require.Contains(t, out, "Batch 3 (in parallel)\n  2A   Backend   depends on: 1\n")
	require.Contains(t, out, "  4  Docs  depends on: 1, 2A        (skipped in the plan: not run)\n")
	require.Contains(t, out, "  5  Release  depends on: 1, 2A, 2B, 2-C, 3, 4\n")
}

func TestMainValidateWarnings(t *testing.T) {
	t.Parallel()
	code, out, errOut := run(t, "validate", plans+"/warnings.md")
	require.Equal(t, 0, code, "warnings do not make a plan invalid")
	require.Equal(t, "../../testdata/plans/warnings.md:7: warning: phase 5 has no body: no section (## Phase 5: …) and no linked file; a run refuses it unless --allow-empty-phases\n"+
		"../../testdata/plans/warnings.md:17: warning: section \"Phase 6\" is not in the phase table; it runs all the same, as a phase of its own\n", errOut)
	require.True(t, strings.HasPrefix(out, "Plan with loose ends (../../testdata/plans/warnings.md)\n4 phases in 3 batches"), out)
}

func TestMainValidateInvalid(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(plans + "/invalid/*.md")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, path := range files {
		code, out, errOut := run(t, "validate", path)
		require.Equal(t, exitcode.Usage, code, path)
		require.Empty(t, out, path)

		lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
		require.GreaterOrEqual(t, len(lines), 2, "%s: %s", path, errOut)
		problem := regexp.MustCompile(`^` + regexp.QuoteMeta(path) + `:[1-9][0-9]*: \S`)
		for _, l := range lines[:len(lines)-1] {
			require.Regexp(t, problem, l, path)
		}
		require.Regexp(t, `^autobuild: `+regexp.QuoteMeta(path)+
			` is not a valid plan \((plan_invalid|circular_dependency)\): nothing was run$`, lines[len(lines)-1])
	}

	code, _, errOut := run(t, "validate", plans+"/invalid/unknown-dep.md")
	require.Equal(t, 2, code)
	require.Equal(t, "../../testdata/plans/invalid/unknown-dep.md:7: unknown dependency \"7\" in phase 3\n"+
		"autobuild: ../../testdata/plans/invalid/unknown-dep.md is not a valid plan (plan_invalid): nothing was run\n", errOut)

	code, _, errOut = run(t, "validate", plans+"/invalid/cycle.md")
	require.Equal(t, 2, code)
	require.Equal(t, "../../testdata/plans/invalid/cycle.md:6: circular_dependency: 2A → 3 → 4 → 2A\n"+
		"autobuild: ../../testdata/plans/invalid/cycle.md is not a valid plan (circular_dependency): nothing was run\n", errOut)

	// Every problem of the plan is reported, warnings first.
	code, _, errOut = run(t, "validate", plans+"/invalid/multi-problem.md")
	require.Equal(t, 2, code)
	require.Len(t, strings.Split(strings.TrimSuffix(errOut, "\n"), "\n"), 8, errOut)
	require.True(t, strings.HasPrefix(errOut, "../../testdata/plans/invalid/multi-problem.md:28: warning: "), errOut)
}

// An invalid plan given to the run command stops before anything runs
// (before the git repository, the config or the agents are looked at).
func TestMainRunInvalidPlan(t *testing.T) {
	t.Parallel()
	code, out, errOut := run(t, plans+"/invalid/self-cycle.md", "--commit=auto", "--agent", "sim")
	require.Equal(t, exitcode.Usage, code)
	require.Empty(t, out)
	require.Equal(t, "../../testdata/plans/invalid/self-cycle.md:6: circular_dependency: 2 → 2\n"+
		"autobuild: ../../testdata/plans/invalid/self-cycle.md is not a valid plan (circular_dependency): nothing was run\n", errOut)
}

func TestMainDryRun(t *testing.T) {
	t.Parallel()
	code, out, errOut := run(t, plans+"/full.md", "--dry-run")
	require.Equal(t, 0, code, errOut)
	require.Equal(t, fullPlan, out, "--dry-run prints what validate prints")
	require.Empty(t, errOut)
}

func TestMainStatusNoRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, out, errOut := run(t, "status", dir)
	require.Equal(t, exitcode.Refused, code)
	require.Empty(t, out)
	require.Contains(t, errOut, "no autobuild run")
	require.Equal(t, 1, strings.Count(errOut, "\n"), errOut)

	code, out, _ = run(t, "status", "--json", dir)
	require.Equal(t, exitcode.Refused, code)
	require.Empty(t, out)
}

// TestMainStatusNoRunSaysHowToStart: without a run, status says how to
// start one. It fails while status.go reaches its hint only through
// snap.Run == nil: state's Snapshot returns (nil, state.ErrNoRun) when
// run.json is missing, so the hint's branch is never taken and the user
// sees ErrNoRun's text alone.
func TestMainStatusNoRunSaysHowToStart(t *testing.T) {
	t.Parallel()
	code, _, errOut := run(t, "status", t.TempDir())
	require.Equal(t, exitcode.Refused, code)
	require.Contains(t, errOut, "start one with autobuild PLAN.md")
}

// saveSample writes sampleSnapshot's run and phases under dir/.autobuild.
func saveSample(t *testing.T, dir string) *state.Snapshot {
	t.Helper()
	snap := sampleSnapshot()
	store := state.Open(dir)
	require.NoError(t, store.SaveRun(snap.Run))
	for _, p := range snap.Phases {
		require.NoError(t, store.SavePhase(p))
	}
	return snap
}

func TestMainStatus(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, ".git"), 0o755))
	sub := filepath.Join(dir, "internal", "x")
	require.NoError(t, os.MkdirAll(sub, 0o755))
	want := saveSample(t, dir)

	for _, d := range []string{dir, sub} {
		code, out, errOut := run(t, "status", d)
		require.Equal(t, exitcode.Halted, code, "the sample run halted: status exits with its code")
		require.Equal(t, sampleStatusIn(dir), out, "from %s", d)
		require.Empty(t, errOut)
	}

	code, out, errOut := run(t, "status", "--json", sub)
	require.Equal(t, exitcode.Halted, code, errOut)
	require.True(t, json.Valid([]byte(out)), out)
	var got state.Snapshot
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&got))
	require.Equal(t, want, &got)
	require.Contains(t, out, "\n  \"run\": {", "indented, snake_case keys")
	require.Contains(t, out, "\n  \"phases\": [")
}

func TestMainStatusCorrupt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, ".autobuild"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".autobuild", "run.json"), []byte("{"), 0o644))
	code, out, errOut := run(t, "status", dir)
	require.Equal(t, exitcode.Refused, code)
	require.Empty(t, out)
	require.Contains(t, errOut, "autobuild: .autobuild/run.json is corrupt")
	require.Contains(t, errOut, "--fresh")
}

func TestMainWatchNeedsATerminal(t *testing.T) {
	t.Parallel()
	code, out, errOut := run(t, "watch", t.TempDir())
	require.Equal(t, exitcode.Usage, code)
	require.Empty(t, out)
	require.Equal(t, "autobuild: watch needs a terminal; for a script, read the state with: autobuild status --json\n", errOut)
}
