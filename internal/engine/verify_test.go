package engine

import (
	"context"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/exitcode"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/line"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// nameGate fails when b.txt uses a name (its content) that a.txt does not
// define, as a compiler would: a rename in a.txt against a caller in b.txt.
const nameGate = `! test -f b.txt || grep -qx "$(cat b.txt)" a.txt || { echo "b.txt:1: undefined: $(cat b.txt)"; exit 1; }`

// renameVersusCaller is 1A ∥ 1B → 2: 1A renames (a.txt: Add → Sum), 1B
// adds a caller of the name its tree has (b.txt), a moment later so that
// it lands second.
const renameVersusCaller = "# Rename\n\n| Phase | Depends On |\n|---|---|\n| 1A | - |\n| 1B | - |\n| 2 | 1A, 1B |\n\n" +
	"## Phase 1A: Rename\n\n## Phase 1B: Caller\n\n## Phase 2: After\n\n## Quality Gates\n\n- build: `" + nameGate + "`\n"

// renameRepo is a repository with a.txt defining Add.
func renameRepo(t *testing.T) string {
	t.Helper()
	repo := gitRepo(t, renameVersusCaller)
	require.NoError(t, os.WriteFile(filepath.Join(repo, "a.txt"), []byte("Add\n"), 0o644))
	runGit(t, repo, "add", "a.txt")
	runGit(t, repo, "commit", "-q", "-m", "a")
	return repo
}

// renameAgent logs each call to calls; fix says whether 1B's retry calls
// the name its (new) tree defines, or Add again.
func renameAgent(calls string, fix bool) string {
	caller := `cat a.txt > b.txt`
	if !fix {
		caller = `echo Add > b.txt`
	}
	return `echo "$AUTOBUILD_PHASE_ID $AUTOBUILD_ATTEMPT" >> ` + calls + `
case "$AUTOBUILD_PHASE_ID" in
1a) echo Sum > a.txt ;;
1b) cp "$AUTOBUILD_PROMPT_FILE" "` + calls + `.prompt-$AUTOBUILD_ATTEMPT"
    if [ "$AUTOBUILD_ATTEMPT" = 1 ]; then sleep 0.5; cat a.txt > b.txt; else ` + caller + `; fi ;;
2) echo done > c.txt ;;
esac`
}

func runRename(t *testing.T, fix bool, change func(*Config)) (Result, string, string, *events) {
	t.Helper()
	repo := renameRepo(t)
	calls := filepath.Join(t.TempDir(), "calls")
	sink := &events{}
	cfg := baseConfig(t, repo, renameVersusCaller, renameAgent(calls, fix), sink)
	cfg.MaxParallel = 2
	if change != nil {
		change(&cfg)
	}
	res, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	return res, repo, calls, sink
}

func callCount(t *testing.T, calls, phase string) int {
	b, err := os.ReadFile(calls)
	if os.IsNotExist(err) {
		return 0
	}
	require.NoError(t, err)
	n := 0
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, phase+" ") {
			n++
		}
	}
	return n
}

// The phase that lands second on a line its change breaks is blamed with
// integration_conflict, naming both phases, the gate, the blocker and
// both sides' files; its retry starts from the line's tip with its change
// on top, and the gate output and the other phase's files in its prompt.
func TestCombinationThatFailsIsTheLaterPhasesIntegrationConflict(t *testing.T) {
	t.Parallel()
	res, repo, calls, sink := runRename(t, true, nil)
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	p, err := state.Open(repo).LoadPhase("1b")
	require.NoError(t, err)
	require.Len(t, p.Attempts, 2)
	rep := p.Attempts[0].Error
	require.Equal(t, failreport.IntegrationConflict, rep.Type)
	require.True(t, rep.Retryable)
	require.Equal(t, "phase 1B passes on its own base but breaks `"+nameGate+"` on top of phase 1A: b.txt:1: undefined: Add", rep.Message)
	require.Equal(t, "phase 1B changed b.txt\nphase 1A changed a.txt", rep.Details)
	require.Equal(t, "build", rep.Gate)
	require.Contains(t, rep.SuggestedActions[1], "sequential")

	prompt, err := os.ReadFile(calls + ".prompt-2")
	require.NoError(t, err)
	require.Contains(t, string(prompt), "b.txt:1: undefined: Add")
	require.Contains(t, string(prompt), "phase 1A changed a.txt")
	require.Contains(t, string(prompt), failure.RetryGuidance(failreport.IntegrationConflict))

	// The line (your branch) holds 1A's rename and 1B's fixed caller.
	require.Equal(t, "Sum", runGit(t, repo, "show", "HEAD:b.txt"))
	require.Equal(t, "Sum", runGit(t, repo, "show", "HEAD:a.txt"))
	require.Equal(t, 1, callCount(t, calls, "2"))
	verifying := sink.of(event.PhaseVerifying)
	require.NotEmpty(t, verifying)
	require.Equal(t, "on top of 1A", verifying[0].Line)
	run, err := state.Open(repo).LoadRun()
	require.NoError(t, err)
	require.Equal(t, 1, run.LineVerification.Conflicts)
	require.Equal(t, "landing", run.Verify)
}

// When the retry breaks the combination again the run halts with the
// resolution options; the phase after both never runs on a broken base and
// is charged nothing; your branch is green.
func TestSecondIntegrationConflictHaltsAndTheNextPhaseNeverRuns(t *testing.T) {
	t.Parallel()
	res, repo, calls, _ := runRename(t, false, nil)
	require.Equal(t, state.RunHalted, res.Status)
	require.Contains(t, res.Reason, "Phase 1B failed after retry (integration_conflict)")
	p, err := state.Open(repo).LoadPhase("1b")
	require.NoError(t, err)
	require.Equal(t, state.PhaseFailed, p.Status)
	require.Equal(t, failreport.IntegrationConflict, p.Error.Type)
	require.Contains(t, strings.Join(p.Error.SuggestedActions, "\n"), "--resume")
	require.Contains(t, strings.Join(p.Error.SuggestedActions, "\n"), "split the shared symbol")

	require.Equal(t, 0, callCount(t, calls, "2"), "phase 2 never ran on a broken base")
	p2, err := state.Open(repo).LoadPhase("2")
	require.NoError(t, err)
	require.Empty(t, p2.Attempts)
	require.Equal(t, state.PhaseBlocked, p2.Status)
	require.Equal(t, "Sum", runGit(t, repo, "show", "HEAD:a.txt"))
	cmd := osexec.Command("git", "cat-file", "-e", "HEAD:b.txt")
	cmd.Dir = repo
	require.Error(t, cmd.Run(), "1B never landed")
}

// --verify=off lands each phase on its own gates' word, as before: the
// broken combination lands, and the phase after both is blamed for it.
func TestVerifyOffLandsTheBrokenCombination(t *testing.T) {
	t.Parallel()
	res, repo, calls, sink := runRename(t, true, func(c *Config) { c.Verify = line.VerifyOff })
	require.Equal(t, state.RunHalted, res.Status, res.Reason)
	require.Contains(t, res.Reason, "Phase 2 failed")
	require.Equal(t, 2, callCount(t, calls, "2"))
	require.Equal(t, "Add", runGit(t, repo, "show", "HEAD:b.txt"))
	require.Equal(t, "Sum", runGit(t, repo, "show", "HEAD:a.txt"))
	require.Empty(t, sink.of(event.PhaseVerifying))
}

// redGate fails naming TestOld while old.txt exists, and TestNew while
// new.txt does.
const redGate = `rc=0; if test -f old.txt; then echo "--- FAIL: TestOld (0.00s)"; rc=1; fi; ` +
	`if test -f new.txt; then echo "--- FAIL: TestNew (0.00s)"; rc=1; fi; exit $rc`

func redBaseRepo(t *testing.T) (string, string) {
	t.Helper()
	planText := planWithTestGate(redGate)
	repo := gitRepo(t, planText)
	require.NoError(t, os.WriteFile(filepath.Join(repo, "old.txt"), []byte("red\n"), 0o644))
	runGit(t, repo, "add", "old.txt")
	runGit(t, repo, "commit", "-q", "-m", "red already")
	return repo, planText
}

// A base whose gates already fail stops the run, exit 3, naming the gate
// and its failing tests: the agent started beside the check is stopped,
// and no phase is charged.
func TestRedBaseStopsTheRunAndChargesNoPhase(t *testing.T) {
	t.Parallel()
	repo, planText := redBaseRepo(t)
	started := filepath.Join(t.TempDir(), "started")
	cfg := baseConfig(t, repo, planText, "touch "+started+"; sleep 30; echo work > work.txt", &events{})
	res, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	require.Equal(t, exitcode.Refused, res.ExitCode())
	require.Equal(t, state.RunHalted, res.Status)
	require.Contains(t, res.Reason, "TestOld")
	require.Contains(t, res.Reason, "--allow-red-base")
	run, err := state.Open(repo).LoadRun()
	require.NoError(t, err)
	require.Equal(t, failreport.RedBase, run.HaltType, "the halt summary reads it: fix the base first")
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Equal(t, state.PhasePending, p.Status)
	for _, a := range p.Attempts {
		require.Equal(t, state.OutcomeInterrupted, a.Outcome, "not charged")
	}
	require.Nil(t, p.Error)
	require.Empty(t, runGit(t, repo, "log", "--format=%s", "-1", "--grep=Autobuild-Phase"))

	// Fixed, the same command goes on: the base is checked again.
	runGit(t, repo, "rm", "-q", "old.txt")
	runGit(t, repo, "commit", "-q", "-m", "fix the base")
	cfg = baseConfig(t, repo, planText, "echo work > work.txt", &events{})
	res, err = Run(context.Background(), cfg)
	require.NoError(t, err)
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
}

// With --allow-red-base a gate counts only the failures the base did not
// have: the base's TestOld is not the phase's, a new TestNew is.
func TestAllowRedBaseCountsOnlyNewFailures(t *testing.T) {
	t.Parallel()
	repo, planText := redBaseRepo(t)
	sink := &events{}
	cfg := baseConfig(t, repo, planText, "echo work > work.txt", sink)
	cfg.AllowRedBase = true
	res, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	run, err := state.Open(repo).LoadRun()
	require.NoError(t, err)
	require.Equal(t, []string{"test"}, run.LineVerification.RedBase)
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Equal(t, 1, p.QualityGates["test"].KnownFailures, "the gate passed with the base's TestOld failing")
	gates := sink.of(event.GateResult)
	require.NotEmpty(t, gates)
	require.Equal(t, "PHASE 1 GATE test PASSED (only the base's known failures: 1) - "+redGate, event.Describe(gates[len(gates)-1]),
		"the line says the gate failed with only the base's failures, not a plain PASSED")

	repo, planText = redBaseRepo(t)
	cfg = baseConfig(t, repo, planText, "echo work > new.txt", &events{})
	cfg.AllowRedBase = true
	res, err = Run(context.Background(), cfg)
	require.NoError(t, err)
	require.Equal(t, state.RunHalted, res.Status)
	p, err = state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Equal(t, failreport.TestFailure, p.Attempts[0].Error.Type)
	require.Contains(t, p.Attempts[0].Error.FailingTests, "TestNew")
}

// A gate that fails on the base without naming a failing test (nothing to
// build yet, the plan's deliverable not there yet) is how a greenfield
// plan starts: not a red base.
func TestGreenfieldGateFailingOnTheBaseIsNotARedBase(t *testing.T) {
	t.Parallel()
	res, _, _ := runPlan(t, planWithTestGate("test -f hello.txt"), "echo hi > hello.txt")
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
}

// Six phases ready together, one pair of them incompatible: whichever of
// the pair lands second is blamed and retried on top of the other, every
// other phase lands, and the line ends green.
func TestACulpritAmongManyIsBlamedAndTheRestLand(t *testing.T) {
	t.Parallel()
	gate := "sleep 0.3; ! test -f d.txt || grep -qx \"$(cat d.txt)\" a.txt || { echo \"d.txt:1: undefined: $(cat d.txt)\"; exit 1; }"
	planText := "# Six\n\n| Phase | Depends On |\n|---|---|\n| 1A | - |\n| 1B | - |\n| 1C | - |\n| 1D | - |\n| 1E | - |\n| 1F | - |\n\n" +
		"## Phase 1A: a\n\n## Phase 1B: b\n\n## Phase 1C: c\n\n## Phase 1D: d\n\n## Phase 1E: e\n\n## Phase 1F: f\n\n## Quality Gates\n\n- build: `" + gate + "`\n"
	repo := gitRepo(t, planText)
	require.NoError(t, os.WriteFile(filepath.Join(repo, "a.txt"), []byte("Add\n"), 0o644))
	runGit(t, repo, "add", "a.txt")
	runGit(t, repo, "commit", "-q", "-m", "a")
	agentShell := `case "$AUTOBUILD_PHASE_ID" in
1a) echo Sum > a.txt; if test -f d.txt; then cat a.txt > d.txt; fi ;;
1d) cat a.txt > d.txt ;;
*) echo x > "$AUTOBUILD_PHASE_ID.txt" ;;
esac`
	cfg := baseConfig(t, repo, planText, agentShell, &events{})
	cfg.MaxParallel = 6
	res, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	conflicts := 0
	for _, id := range []phaseid.ID{"1a", "1b", "1c", "1d", "1e", "1f"} {
		p, err := state.Open(repo).LoadPhase(id)
		require.NoError(t, err)
		require.Equal(t, state.PhaseComplete, p.Status)
		for _, a := range p.Attempts {
			if a.Error != nil {
				require.Equal(t, failreport.IntegrationConflict, a.Error.Type, "phase %s", id)
				conflicts++
			}
		}
	}
	require.Equal(t, 1, conflicts, "one of 1A and 1D is blamed")
	require.Equal(t, "Sum", runGit(t, repo, "show", "HEAD:a.txt"))
	require.Equal(t, "Sum", runGit(t, repo, "show", "HEAD:d.txt"))
	for _, f := range []string{"1b", "1c", "1e", "1f"} {
		require.Equal(t, "x", runGit(t, repo, "show", "HEAD:"+f+".txt"))
	}
	run, err := state.Open(repo).LoadRun()
	require.NoError(t, err)
	require.Equal(t, 1, run.LineVerification.Conflicts)
	require.GreaterOrEqual(t, run.LineVerification.Groups, 1)
}
