package summary

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	goldenfile "github.com/autobuild-sh/autobuild/internal/golden"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// golden compares got with testdata/name (rewritten with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Equal(t, filepath.Join("testdata", name), got)
}

func haltedInput() Input {
	t0 := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	done := func(id phaseid.Display, name, sha, msg string, secs float64) *state.Phase {
		return &state.Phase{PhaseID: phaseid.ID(strings.ToLower(string(id))), DisplayID: id, PhaseName: name, Status: state.PhaseComplete,
			Attempt: 1, MaxAttempts: 2, Timestamps: state.Timestamps{DurationSeconds: secs},
			Commit: &state.Commit{SHA: sha, Message: msg}}
	}
	rep := &failreport.Report{Type: failreport.TestFailure, Message: "test gate failed: 1 test failing (TestFormat)",
		Retryable: true, Attempt: 2, Gate: "test", GateCommand: "go test ./...",
		GateOutput:   "--- FAIL: TestFormat (0.00s)\n    format_test.go:15: Format(3) = \"3.000000\", want \"3\"\nFAIL",
		FailingTests: []string{"TestFormat"}, SuggestedActions: []string{"Fix the failing tests: TestFormat"}}
	return Input{
		Run: &state.Run{Status: state.RunHalted, HaltReason: "Phase 2B failed after retry (test_failure)",
			CommitMode: "auto", Branch: "main", Started: t0},
		Phases: []*state.Phase{
			done("0", "Bootstrap", "1111111aaaa", "chore(calc): bootstrap\n\nbody", 4),
			done("1", "Core arithmetic", "2222222bbbb", "feat(calc): core arithmetic", 65),
			done("2A", "Expression parser", "3333333cccc", "feat(calc): expression parser", 8),
			{PhaseID: "2b", DisplayID: "2B", PhaseName: "Number formatting", Status: state.PhaseFailed, Attempt: 2,
				MaxAttempts: 2, Error: rep, Worktree: ".autobuild/worktrees/phase-2b",
				Attempts: []state.Attempt{{Number: 1}, {Number: 2, LogPath: ".autobuild/logs/phase-2b.attempt-2.log"}}},
			{PhaseID: "3", DisplayID: "3", PhaseName: "Command line", Status: state.PhaseBlocked, BlockedBy: []phaseid.Display{"2B"}},
		},
		StateDir:      ".autobuild/",
		ResumeCommand: "autobuild plan.md --agent claude --resume",
		FreshCommand:  "autobuild plan.md --agent claude --fresh --commit=auto",
	}
}

func TestHaltSummaryGolden(t *testing.T) {
	golden(t, "halt-80.txt", Render(haltedInput(), 80))
	golden(t, "halt-60.txt", Render(haltedInput(), 60))
}

func TestCompleteSummaryGolden(t *testing.T) {
	in := haltedInput()
	fin := in.Run.Started.Add(3*time.Minute + 12*time.Second)
	in.Run.Status, in.Run.Finished = state.RunComplete, &fin
	in.Phases = in.Phases[:3]
	golden(t, "complete-80.txt", Render(in, 80))
}

// An eager run says so in both boxes; a batch run's boxes are the ones
// above, unchanged.
func TestSummariesNameTheEagerSchedule(t *testing.T) {
	in := haltedInput()
	in.Run.Schedule = state.ScheduleEager
	golden(t, "halt-eager-80.txt", Render(in, 80))
	fin := in.Run.Started.Add(3*time.Minute + 12*time.Second)
	in.Run.Status, in.Run.Finished = state.RunComplete, &fin
	in.Phases = in.Phases[:3]
	golden(t, "complete-eager-80.txt", Render(in, 80))
	in.Run.Schedule = state.ScheduleBatches
	require.NotContains(t, Render(in, 80), "Schedule")
}

// Every line of the box has the same width, whatever the content: nothing is
// cut, long text wraps.
func TestBoxLinesHaveOneWidth(t *testing.T) {
	for _, width := range []int{40, 60, 80, 120} {
		out := Render(haltedInput(), width)
		for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
			require.Equal(t, width, ansi.StringWidth(l), "width %d: %q", width, l)
		}
		require.Contains(t, out, "TestFormat")
		require.Contains(t, strings.ReplaceAll(out, "║", ""), "--resume")
	}
}

func TestSystemicCauseIsSaidOnce(t *testing.T) {
	in := haltedInput()
	missing := &failreport.Report{Type: failreport.DependencyMissing, Message: "claude not found (exit 127)", MissingTool: "claude"}
	in.Phases[3].Error = missing
	in.Phases = append(in.Phases, &state.Phase{PhaseID: "2c", DisplayID: "2C", Status: state.PhaseFailed, Error: missing})
	out := Render(in, 80)
	require.Contains(t, out, "SYSTEMIC CAUSE")
}

// Gate output with tabs, colour codes and carriage returns, commands longer
// than the box, and lines that fill the box exactly all keep the border: each
// line of the box is exactly as wide as the box. (Seen in the demo: go test's
// "FAIL\tpkg" pushed the border out, and an exact-width line lost it.)
func TestBoxKeepsItsBorderWithHostileText(t *testing.T) {
	in := haltedInput()
	rep := *in.Phases[3].Error
	rep.GateOutput = "# example.com/calc/calc\ncalc/format_test.go:14:13: undefined: Format\nFAIL\texample.com/calc/calc [build failed]\n\x1b[31mFAIL\x1b[0m\n10%\r100%"
	rep.SuggestedActions = []string{"run the tests in the phase's worktree to see the failures: go test ./..."}
	rep.Details = "shared.txt: phase 1A changed lines 3-5, phase 1B changed lines 4-6 and then some more words to fill the line\nother.txt: phase 1A changed lines 10-12"
	in.Phases[3].Error = &rep
	in.ResumeCommand = "cd /tmp/autobuild-demo-598705225/calc && autobuild plan.md --agent sim --scenario /tmp/autobuild-demo-598705225/scenario.json --resume"
	in.FreshCommand = "cd /tmp/autobuild-demo-598705225/calc && autobuild plan.md --agent sim --scenario /tmp/autobuild-demo-598705225/scenario.json --fresh --commit=auto"
	for width := 40; width <= 120; width++ {
		out := Render(in, width)
		for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
			require.Equal(t, width, ansi.StringWidth(l), "width %d: %q", width, l)
			require.NotContains(t, l, "\t")
			require.NotContains(t, l, "\x1b")
		}
		flat := strings.Join(strings.Fields(strings.NewReplacer("║", " ").Replace(out)), " ")
		require.Contains(t, flat, "go test ./...", "width %d", width)
		require.Contains(t, flat, "1. Run the tests in the phase's worktree", "width %d: steps read as sentences", width)
		require.Contains(t, flat, "--agent sim --scenario", "width %d", width)
		require.Contains(t, flat, "FAIL example.com/calc/calc [build failed]", "width %d", width)
		require.Contains(t, out, "║            other.txt:", "width %d: a second line of details is indented under the first", width)
	}
}

// In single mode the phases have no commits of their own: the summary counts
// and names the run's one commit.
func TestCompleteSummarySingleModeCountsTheOneCommit(t *testing.T) {
	in := haltedInput()
	fin := in.Run.Started.Add(time.Minute)
	in.Run.Status, in.Run.Finished, in.Run.CommitMode = state.RunComplete, &fin, "single"
	in.Phases = in.Phases[:3]
	for _, p := range in.Phases {
		p.Commit = &state.Commit{Message: "feat: " + p.PhaseName, FilesCreated: []string{"a.go"}}
	}
	out := Render(in, 80)
	require.Contains(t, out, "3 phases, 0 commits", "no commit yet without a final commit")
	in.Run.FinalCommit = "abcdef0123456789"
	out = Render(in, 80)
	require.Contains(t, out, "3 phases, 1 commit,")
	require.Contains(t, out, "one commit: abcdef0 on main")
}

func TestFixStepComesFirst(t *testing.T) {
	in := haltedInput()
	in.FixStep = "Demo: apply the fix"
	out := Render(in, 80)
	require.Contains(t, out, "1. Demo: apply the fix")
	require.Contains(t, out, "2. Fix the failing tests: TestFormat")
	require.Contains(t, out, "3. Run: autobuild plan.md --agent claude --resume")
}

// The wall time of a run halted and resumed two hours later counts its two
// sessions only.
func TestCompleteSummaryWallTimeExcludesHaltedTime(t *testing.T) {
	in := haltedInput()
	resumed := in.Run.Started.Add(2 * time.Hour)
	fin := resumed.Add(4 * time.Minute)
	in.Run.Status, in.Run.Finished = state.RunComplete, &fin
	in.Run.SessionStarted, in.Run.ActiveSeconds = &resumed, 300
	in.Phases = in.Phases[:3]
	require.Contains(t, Render(in, 80), ", wall time 9m00s.")
}

// TestHaltAfterResumeRepeat: a resumed phase whose first attempt fails as
// before halts at once (circular, across resumes: docs/failures.md); the box
// says why and what a resume does, and does not call the failure type not
// retryable.
func TestHaltAfterResumeRepeat(t *testing.T) {
	t.Parallel()
	in := haltedInput()
	p := in.Phases[3]
	p.Attempt = 1
	p.Error.Circular, p.Error.Retryable = true, false
	out := Render(in, 80)
	require.Contains(t, out, "Attempts: 1/2 (same fix tried again: needs a person)")
	require.NotContains(t, out, "not retryable")
	require.Contains(t, out, "(a failed phase: two attempts again; one failing as before halts at once)")
}

// Attack 5 (issue 25): a phase name with `ESC c` or U+202E (from a plan
// parsed by an older autobuild, kept in its state files) is printed as
// text in the summary box, on plain output and in the UI alike.
func TestAttackSummaryBoxPrintsNoEscapes(t *testing.T) {
	t.Parallel()
	run := &state.Run{Status: state.RunComplete}
	phases := []*state.Phase{{PhaseID: "1", DisplayID: "1", PhaseName: "Name \x1bc here \u202e rtl", Status: state.PhaseComplete}}
	out := Render(Input{Run: run, Phases: phases}, 80)
	require.NotContains(t, out, "\x1b")
	require.NotContains(t, out, "\u202e")
	require.Contains(t, out, "here")
}
