package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// A phase with no section and no linked file would run with an empty
// prompt: the run is refused, before anything else, with the list and the
// ways out.
func TestRunRefusesPhasesWithoutBody(t *testing.T) {
	t.Parallel()
	code, out, errOut := run(t, plans+"/warnings.md", "--commit=auto", "--agent", "sim", "--no-tui")
	require.Equal(t, exitcode.Usage, code, errOut)
	require.Empty(t, out)
	require.Contains(t, errOut, "1 phase(s) have no body, so their agents would be told nothing but a name:\n"+
		"  Phase 5: Polish (../../testdata/plans/warnings.md:7)\n")
	require.Contains(t, errOut, "## Phase 5: …")
	require.Contains(t, errOut, "--allow-empty-phases")
}

// --allow-empty-phases runs them from their table row, and the prompt says
// the row is all there is.
func TestAllowEmptyPhasesWritesRowBody(t *testing.T) {
	t.Parallel()
	pl, err := plan.ParseFile(plans + "/warnings.md")
	require.NoError(t, err)
	require.Error(t, checkBodies(pl, false))
	require.NoError(t, checkBodies(pl, true))
	body := pl.Phase("5").Body
	require.True(t, strings.HasPrefix(body, "## Phase 5: Polish\n\nThis phase has no section of its own in the plan"), body)
	require.Contains(t, body, "- Depends on: Phase 2: Build\n")
	require.Empty(t, pl.Bodiless())
	require.NoError(t, checkBodies(pl, false), "once filled, nothing is refused")
}

// validate --json prints one document whatever the plan's state; its
// fields are the documented ones.
func TestValidateJSON(t *testing.T) {
	t.Parallel()
	code, out, errOut := run(t, "validate", "--json", plans+"/real/ledger.md")
	require.Equal(t, 0, code, errOut)
	require.Empty(t, errOut)
	var doc map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.Equal(t, float64(1), doc["version"])
	require.Equal(t, true, doc["valid"])
	require.Len(t, doc["phases"], 8)
	f4 := doc["phases"].([]any)[3].(map[string]any)
	require.Equal(t, map[string]any{
		"id": "f4", "display_id": "F4", "name": "Invoice engine", "line": float64(10), "section_line": float64(31),
		"body_file": "", "depends_on": []any{"f1", "f2", "f3"}, "parallel_with": []any{}, "estimate": "",
		"status": "open", "will_run": true, "has_body": true, "tasks": float64(2), "tasks_done": float64(1), "files": []any{},
	}, f4)
	batches := doc["batches"].([]any)
	require.Len(t, batches, 5)
	require.Equal(t, map[string]any{"index": float64(3), "phases": []any{"f4", "f5"}, "groups": []any{[]any{"f4"}, []any{"f5"}}}, batches[2])
	require.Equal(t, []any{}, doc["errors"])

	// Invalid: the document still comes, with the errors and their lines,
	// and the exit status says invalid.
	code, out, _ = run(t, "validate", "--json", plans+"/real/template.md")
	require.Equal(t, exitcode.Usage, code)
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.Equal(t, false, doc["valid"])
	errs := doc["errors"].([]any)
	require.Len(t, errs, 1)
	require.Equal(t, float64(6), errs[0].(map[string]any)["line"])
	require.Contains(t, errs[0].(map[string]any)["message"], "inside a code fence")

	// Warnings, with lines; --dry-run --json is the same document.
	code, out, _ = run(t, plans+"/warnings.md", "--dry-run", "--json")
	require.Equal(t, 0, code)
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	warns := doc["warnings"].([]any)
	require.Len(t, warns, 2)
	require.Equal(t, float64(7), warns[0].(map[string]any)["line"])
	require.Equal(t, false, doc["phases"].([]any)[2].(map[string]any)["has_body"])

	// A file that is not there is an error without a document.
	code, out, errOut = run(t, "validate", "--json", plans+"/nope.md")
	require.Equal(t, exitcode.Usage, code)
	require.Empty(t, out)
	require.Contains(t, errOut, "nope.md")
}

// status exits with the run's own code, so a script can tell a halted run
// from a complete one.
func TestStatusExitCode(t *testing.T) {
	t.Parallel()
	gone := 1 << 22 // above the default pid_max: no such process
	for _, tt := range []struct {
		run  state.Run
		want int
	}{
		{state.Run{Status: state.RunComplete}, 0},
		{state.Run{Status: state.RunRunning, PID: os.Getpid()}, 0},
		{state.Run{Status: state.RunRunning, PID: gone}, exitcode.Interrupted},
		{state.Run{Status: state.RunHalted}, exitcode.Halted},
		{state.Run{Status: state.RunInterrupted}, exitcode.Interrupted},
	} {
		require.Equal(t, tt.want, statusExitCode(&tt.run), "%+v", tt.run)
	}
}

// A plan without an H1 is titled by its file name once; one batch is "1
// batch".
func TestValidateSingular(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "one.md")
	require.NoError(t, os.WriteFile(path, []byte("| Phase | Depends On |\n|--|--|\n| 1 | - |\n\n## Phase 1: x\nhi\n"), 0o644))
	code, out, errOut := run(t, "validate", path)
	require.Equal(t, 0, code, errOut)
	require.True(t, strings.HasPrefix(out, path+"\n1 phase in 1 batch; "), out)
}

// A mistyped subcommand gets a suggestion, not "no such file"; a file of
// that name is a plan and wins.
func TestMistypedSubcommand(t *testing.T) {
	t.Parallel()
	code, out, errOut := run(t, "stauts")
	require.Equal(t, exitcode.Usage, code)
	require.Empty(t, out)
	require.Equal(t, "autobuild: unknown command \"stauts\": did you mean status? (a plan is a markdown file: autobuild PLAN.md; see autobuild --help)\n", errOut)

	code, _, errOut = run(t, "valdate", "plan.md")
	require.Equal(t, exitcode.Usage, code)
	require.Contains(t, errOut, "did you mean validate?")

	code, _, errOut = run(t, "frobnicate")
	require.Equal(t, exitcode.Usage, code)
	require.Contains(t, errOut, "unknown command \"frobnicate\", and there is no plan file of that name")

	// A plan file named like a command is a plan.
	dir := t.TempDir()
	path := filepath.Join(dir, "stauts")
	require.NoError(t, os.WriteFile(path, []byte("| Phase | Depends On |\n|--|--|\n| 1 | - |\n\n## Phase 1: x\nhi\n"), 0o644))
	require.NoError(t, mistypedCommand(newRoot(Streams{}), path))
}

func TestVersionSubcommand(t *testing.T) {
	t.Parallel()
	code, out, errOut := run(t, "version")
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "autobuild version "+version()+"\n", out)
}

// Shell completion offers the plan's markdown files, the commit modes and
// the agent presets.
func TestCompletion(t *testing.T) {
	t.Parallel()
	code, out, _ := run(t, "__complete", "--commit", "")
	require.Equal(t, 0, code)
	require.Equal(t, "auto\ta commit per phase\nmessage-only\tchanges left uncommitted, plus commits.sh\nsingle\tone commit at the end\n:4\n", out)

	_, out, _ = run(t, "__complete", "plan.md", "--agent", "")
	require.True(t, strings.HasPrefix(out, "claude\ncodex\naider\ngemini\nqwen\nopencode\ncopilot\npi\nsim\tthe built-in simulated agent\n:0\n"), out)

	_, out, _ = run(t, "__complete", "")
	require.Contains(t, out, "status\t")
	require.Contains(t, out, "\nmd\nmarkdown\n:8\n", "markdown files (directive FilterFileExt)")

	_, out, _ = run(t, "__complete", "validate", "")
	require.True(t, strings.HasSuffix(out, "md\nmarkdown\n:8\n"), out)
	_, out, _ = run(t, "__complete", "status", "")
	require.True(t, strings.HasSuffix(out, ":16\n"), "directories only: %s", out)
}

func TestMaxParallelRefusesLessThanOne(t *testing.T) {
	t.Parallel()
	for _, n := range []string{"0", "-1"} {
		code, out, errOut := run(t, plans+"/minimal.md", "--max-parallel", n, "--commit=auto", "--agent", "sim")
		require.Equal(t, exitcode.Usage, code)
		require.Empty(t, out)
		require.Contains(t, errOut, "--max-parallel "+n+": at least 1 phase must be able to run")
	}
}

func TestScheduleRefusesAnUnknownValue(t *testing.T) {
	t.Parallel()
	code, out, errOut := run(t, plans+"/minimal.md", "--schedule", "greedy", "--commit=auto", "--agent", "sim")
	require.Equal(t, exitcode.Usage, code)
	require.Empty(t, out)
	require.Contains(t, errOut, `--schedule: unknown schedule "greedy": use batches, eager`)
}
