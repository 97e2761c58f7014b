package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/state"
)

func TestCommandLineWithCommands(t *testing.T) {
	t.Parallel()
	o := &runOptions{planPath: "plan.md", commands: func(mode string) string {
		return "cd '/tmp/demo x/calc' && autobuild plan.md --agent sim " + mode
	}}
	require.Equal(t, "cd '/tmp/demo x/calc' && autobuild plan.md --agent sim --resume", commandLine(o, "--resume"))
	// The command names no commit mode: the fresh one adds the run's.
	require.Equal(t, "cd '/tmp/demo x/calc' && autobuild plan.md --agent sim --fresh --commit=auto", freshCommand(o, "auto"))

	o.commands = func(mode string) string { return "autobuild p.md --commit=single " + mode }
	require.Equal(t, "autobuild p.md --commit=single --fresh", freshCommand(o, "auto"),
		"a command that names its commit mode keeps it")
}

// TestCommandLineFromArgs covers the os.Args path without changing os.Args
// (a process global): under go test os.Args[1:] are -test.* flags, which
// commandLine keeps; the plan path, absent from them, is appended quoted,
// and the mode comes last.
func TestCommandLineFromArgs(t *testing.T) {
	t.Parallel()
	for _, a := range os.Args[1:] {
		if strings.Contains(a, "my plan.md") || strings.Contains(a, "--commit") || a == "--resume" || a == "--fresh" {
			t.Skipf("the test binary's arguments (%q) would change the result", os.Args[1:])
		}
	}
	o := &runOptions{planPath: "docs/my plan.md", self: launcher{words: "autobuild"}}
	line := commandLine(o, "--resume")
	require.True(t, strings.HasPrefix(line, "autobuild"), line)
	require.True(t, strings.HasSuffix(line, " 'docs/my plan.md' --resume"), line)
	require.Equal(t, 1, strings.Count(line, "my plan.md"), line)

	fresh := freshCommand(o, "message-only")
	require.True(t, strings.HasSuffix(fresh, " 'docs/my plan.md' --fresh --commit=message-only"), fresh)

	// Without options (and without a plan path) it is still a command line.
	require.True(t, strings.HasSuffix(commandLine(nil, "--resume"), " --resume"))
	require.True(t, strings.HasPrefix(commandLine(nil, "--resume"), programName().words))
}

func TestFindRoot(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	if outside, err := findRoot(tmp); err != nil || outside != tmp {
		t.Skipf("the temporary directory %s is inside a repository (%s)", tmp, outside)
	}

	deep := filepath.Join(tmp, "repo", "a", "b", "c")
	require.NoError(t, os.MkdirAll(deep, 0o755))

	// Not in a repository: the directory itself.
	root, err := findRoot(deep)
	require.NoError(t, err)
	require.Equal(t, deep, root)

	// .git (a directory, or a file as in a worktree) marks the root.
	repo := filepath.Join(tmp, "repo")
	require.NoError(t, os.Mkdir(filepath.Join(repo, ".git"), 0o755))
	for _, dir := range []string{deep, filepath.Join(repo, "a"), repo} {
		root, err := findRoot(dir)
		require.NoError(t, err)
		require.Equal(t, repo, root, "from %s", dir)
	}

	// The nearest .autobuild wins over a .git further up.
	sub := filepath.Join(repo, "a")
	require.NoError(t, os.Mkdir(filepath.Join(sub, ".autobuild"), 0o755))
	root, err = findRoot(deep)
	require.NoError(t, err)
	require.Equal(t, sub, root)

	// A worktree's .git is a file.
	wt := filepath.Join(tmp, "wt")
	require.NoError(t, os.MkdirAll(filepath.Join(wt, "x"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: /elsewhere\n"), 0o644))
	root, err = findRoot(filepath.Join(wt, "x"))
	require.NoError(t, err)
	require.Equal(t, wt, root)

	// Relative paths are made absolute.
	root, err = findRoot(filepath.Join(deep, "..", ".."))
	require.NoError(t, err)
	require.Equal(t, sub, root)
}

var (
	t0      = time.Date(2026, 3, 14, 10, 30, 0, 0, time.UTC)
	t1      = t0.Add(65 * time.Second)
	longSHA = "4902ada5c0ffee11d2b7e0a1f3c4d5e6f7a8b9c0"
)

// sampleSnapshot is a halted run with a phase in every status.
func sampleSnapshot() *state.Snapshot {
	return &state.Snapshot{
		Run: &state.Run{SchemaVersion: state.SchemaVersion, PlanPath: "docs/plan.md", PlanTitle: "Team Notes",
			CommitMode: "auto", Agents: []string{"claude", "codex"}, Branch: "main", Status: state.RunHalted,
			HaltReason: "phase 2A failed after 2 attempts", Started: t0, Updated: t1},
		Phases: []*state.Phase{
			{PhaseID: "0", DisplayID: "0", PhaseName: "Bootstrap", Batch: 1, Status: state.PhaseSkipped},
			{PhaseID: "1", DisplayID: "1", PhaseName: "Domain model", Batch: 2, Status: state.PhaseComplete,
				Attempt: 1, MaxAttempts: 2, Timestamps: state.Timestamps{Started: &t0, Completed: &t1, DurationSeconds: 65},
				Commit: &state.Commit{SHA: longSHA, Message: "feat(model): domain model\n\nNotes and tags."}},
			{PhaseID: "2a", DisplayID: "2A", PhaseName: "Backend API", Batch: 3, Status: state.PhaseFailed,
				Attempt: 2, MaxAttempts: 2, Timestamps: state.Timestamps{DurationSeconds: 3725},
				Error: &failreport.Report{Type: failreport.TestFailure, Message: "test gate failed: 1 test failing (TestFormat)"}},
			{PhaseID: "2b", DisplayID: "2B", PhaseName: "Web client", Batch: 3, Status: state.PhaseRunning,
				Attempt: 1, LastOutput: "Writing web/app.js"},
			{PhaseID: "3", DisplayID: "3", PhaseName: "Integration", Batch: 4, Status: state.PhaseBlocked,
				BlockedBy: []phaseid.Display{"2A", "2B"}},
			{PhaseID: "4", DisplayID: "4", PhaseName: "Docs", Batch: 4, Status: state.PhasePending},
		},
	}
}

const sampleStatus = "Team Notes (docs/plan.md): halted, commit=auto, agent claude, codex\n" +
	"Reason: phase 2A failed after 2 attempts\n" +
	"Continue it with: CD autobuild docs/plan.md --resume (complete phases stay complete)\n" +
	"\n" +
	"BATCH  PHASE  NAME          STATUS    ATTEMPT  DURATION  DETAIL\n" +
	"1      0      Bootstrap     skipped   -        -         \n" +
	"2      1      Domain model  complete  1/2      1m05s     4902ada feat(model): domain model\n" +
	"3      2A     Backend API   failed    2/2      1h02m     test_failure: test gate failed: 1 test failing (TestFormat)\n" +
	"3      2B     Web client    running   1/1      -         Writing web/app.js\n" +
	"4      3      Integration   blocked   -        -         blocked by 2A, 2B\n" +
	"4      4      Docs          pending   -        -         \n"

// sampleStatusIn is sampleStatus as printed from another directory than
// root ("" for root itself).
func sampleStatusIn(root string) string {
	cd := ""
	if root != "" {
		cd = "cd " + root + " && "
	}
	return strings.Replace(sampleStatus, "CD ", cd, 1)
}

func TestPrintStatus(t *testing.T) {
	t.Parallel()
	wd, err := os.Getwd()
	require.NoError(t, err)
	var buf bytes.Buffer
	printStatus(&buf, sampleSnapshot(), wd, launcher{words: "autobuild"})
	require.Equal(t, sampleStatusIn(""), buf.String())

	// A run without a halt reason has no Reason line.
	snap := sampleSnapshot()
	snap.Run.Status, snap.Run.HaltReason, snap.Phases = state.RunRunning, "", nil
	buf.Reset()
	printStatus(&buf, snap, wd, launcher{words: "autobuild"})
	require.Equal(t, "Team Notes (docs/plan.md): running, commit=auto, agent claude, codex\n\n"+
		"BATCH  PHASE  NAME  STATUS  ATTEMPT  DURATION  DETAIL\n", buf.String())

	// An eager run says so, as its start line does.
	snap.Run.Schedule = state.ScheduleEager
	buf.Reset()
	printStatus(&buf, snap, wd, launcher{words: "autobuild"})
	require.Equal(t, "Team Notes (docs/plan.md): running, commit=auto, schedule eager, agent claude, codex\n\n"+
		"BATCH  PHASE  NAME  STATUS  ATTEMPT  DURATION  DETAIL\n", buf.String())
}

func TestStatusDetail(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		phase state.Phase
		want  string
	}{
		{"failed", state.Phase{Status: state.PhaseFailed,
			Error: &failreport.Report{Type: failreport.Timeout, Message: "no output for 5m"}}, "timeout: no output for 5m"},
		{"failed without a report", state.Phase{Status: state.PhaseFailed}, ""},
		{"blocked", state.Phase{Status: state.PhaseBlocked, BlockedBy: []phaseid.Display{"2A"}}, "blocked by 2A"},
		{"committed", state.Phase{Status: state.PhaseComplete,
			Commit: &state.Commit{SHA: longSHA, Message: "feat: x\nbody"}}, "4902ada feat: x"},
		{"short sha", state.Phase{Status: state.PhaseComplete,
			Commit: &state.Commit{SHA: "abc", Message: "feat: y"}}, "abc feat: y"},
		{"message-only commit", state.Phase{Status: state.PhaseComplete,
			Commit: &state.Commit{Message: "feat: z"}}, ""},
		{"running", state.Phase{Status: state.PhaseRunning, LastOutput: "Writing a.go"}, "Writing a.go"},
		{"running, silent", state.Phase{Status: state.PhaseRunning}, ""},
		{"pending with old output", state.Phase{Status: state.PhasePending, LastOutput: "old"}, ""},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, statusDetail(&tt.phase), tt.name)
	}
}

func TestPrintPlanGroups(t *testing.T) {
	t.Parallel()
	// 2A and 2B share a batch but do not name each other in Parallel With:
	// they run one after another; 2C is done in the plan.
	src := `# Grouped

| Phase | Name | Depends On | Parallel With | Status |
|-------|------|------------|---------------|--------|
| 1 | Base | - | - | ⬜ |
| 2A | Left | 1 | - | ⬜ |
| 2B | Right | 1 | 2C | ⬜ |
| 2C | Done | 1 | 2B | ✅ |

## Phase 1: Base

## Phase 2A: Left

## Phase 2B: Right

## Phase 2C: Done
`
	pl, err := plan.Parse("grouped.md", []byte(src))
	require.NoError(t, err)
	var buf bytes.Buffer
	printPlan(&buf, pl, nil)
	require.Equal(t, "Grouped (grouped.md)\n"+
		"4 phases in 2 batches; quality gates: detected from the repository at run time\n"+
		"\n"+
		"Batch 1\n"+
		"  1  Base  depends on: -\n"+
		"\n"+
		"Batch 2 (one after another: 2A then 2B+2C)\n"+
		"  2A  Left   depends on: 1\n"+
		"  2B  Right  depends on: 1  parallel with 2C\n"+
		"  2C  Done   depends on: 1  parallel with 2B  (complete in the plan: not run)\n",
		buf.String())
}
