package printer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	goldenfile "github.com/autobuild-sh/autobuild/internal/golden"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// base is the run's start: 10:30:00 UTC, printed as 11:30:00 in the
// printer's fixed zone (UTC+1), so a printer that ignored Location would
// show up in the golden files.
var base = time.Date(2026, 3, 14, 10, 30, 0, 0, time.UTC)

var cet = time.FixedZone("CET", 60*60)

func at(seconds int) time.Time { return base.Add(time.Duration(seconds) * time.Second) }

// haltedRun is the event stream of a run that halts: a plan-skipped phase,
// a phase that completes and lands, a phase that fails its test gate, is
// retried with another agent and fails again, a phase that lands in
// message-only form, and a dependent that is blocked.
func haltedRun() []event.Event {
	testFailure := &failreport.Report{Type: failreport.TestFailure, Retryable: true, Attempt: 1, DurationSeconds: 41.5,
		Message: "test gate failed: 1 test failing (TestFormat)",
		Details: "--- FAIL: TestFormat (0.00s)\n    format_test.go:12: Format(3) = \"3.000000\", want \"3\"",
		Gate:    "test", GateCommand: "go test ./...", FailingTests: []string{"TestFormat"},
		SuggestedActions: []string{"read the failing test's output above"}}
	agentError := &failreport.Report{Type: failreport.AgentError, Attempt: 2, DurationSeconds: 3,
		Message: "agent exited with status 1"}
	return []event.Event{
		{Kind: event.RunStarted, Time: at(0), Line: "docs/plan.md: 5 phases, commit=auto, agent claude"},
		{Kind: event.PhaseSkipped, Time: at(0), PhaseID: "0", DisplayID: "0", PhaseName: "Bootstrap",
			Line: "the plan marks it complete"},
		{Kind: event.BatchStarted, Time: at(1), Batch: 1, Phases: []phaseid.Display{"1"}},
		{Kind: event.PhaseStarted, Time: at(1), PhaseID: "1", DisplayID: "1", PhaseName: "Domain model",
			Attempt: 1, MaxAttempts: 2, Agent: "claude"},
		{Kind: event.PhaseOutput, Time: at(2), PhaseID: "1", DisplayID: "1", Attempt: 1, Stream: "agent",
			Line: "Reading the phase and the files it names"},
		{Kind: event.PhaseOutput, Time: at(9), PhaseID: "1", DisplayID: "1", Attempt: 1, Stream: "gate:test",
			Line: "ok  \texample.com/notes/model\t0.012s"},
		{Kind: event.GateResult, Time: at(9), PhaseID: "1", DisplayID: "1", PhaseName: "Domain model",
			Attempt: 1, MaxAttempts: 2, Gate: &event.Gate{Kind: "build", Command: "go build ./...",
				Status: state.GatePassed, DurationSeconds: 1.25}},
		{Kind: event.GateResult, Time: at(10), PhaseID: "1", DisplayID: "1", PhaseName: "Domain model",
			Attempt: 1, MaxAttempts: 2, Gate: &event.Gate{Kind: "test", Command: "go test ./...",
				Status: state.GatePassed, DurationSeconds: 0.75}},
		{Kind: event.PhaseCompleted, Time: at(10), PhaseID: "1", DisplayID: "1", PhaseName: "Domain model",
			Attempt: 1, MaxAttempts: 2, Agent: "claude", DurationSeconds: 9.04},
		{Kind: event.PhaseIntegrated, Time: at(11), PhaseID: "1", DisplayID: "1", PhaseName: "Domain model",
			Commit: &state.Commit{SHA: "4902ada5c0ffee11d2b7e0a1f3c4d5e6f7a8b9c0",
				Message:      "feat(model): domain model\n\nNotes, tags and users.",
				FilesCreated: []string{"model/note.go"}}},
		{Kind: event.BatchStarted, Time: at(11), Batch: 2, Phases: []phaseid.Display{"2A", "2B"}},
		{Kind: event.PhaseStarted, Time: at(11), PhaseID: "2a", DisplayID: "2A", PhaseName: "Backend API",
			Attempt: 1, MaxAttempts: 2, Agent: "claude"},
		{Kind: event.PhaseStarted, Time: at(11), PhaseID: "2b", DisplayID: "2B", PhaseName: "Web client",
			Attempt: 1, MaxAttempts: 2, Agent: "claude"},
		{Kind: event.PhaseOutput, Time: at(30), PhaseID: "2a", DisplayID: "2A", Attempt: 1, Stream: "gate:test",
			Line: "--- FAIL: TestFormat (0.00s)"},
		{Kind: event.GateResult, Time: at(52), PhaseID: "2a", DisplayID: "2A", PhaseName: "Backend API",
			Attempt: 1, MaxAttempts: 2, Gate: &event.Gate{Kind: "test", Command: "go test ./...",
				Status: state.GateFailed, ExitCode: 1, DurationSeconds: 2.5}},
		{Kind: event.PhaseFailed, Time: at(52), PhaseID: "2a", DisplayID: "2A", PhaseName: "Backend API",
			Attempt: 1, MaxAttempts: 2, Agent: "claude", Failure: testFailure, DurationSeconds: 41.5},
		{Kind: event.PhaseCompleted, Time: at(58), PhaseID: "2b", DisplayID: "2B", PhaseName: "Web client",
			Attempt: 1, MaxAttempts: 2, Agent: "claude", DurationSeconds: 47},
		{Kind: event.PhaseIntegrated, Time: at(58), PhaseID: "2b", DisplayID: "2B", PhaseName: "Web client",
			Commit: &state.Commit{Message: "feat(web): web client", FilesCreated: []string{"web/app.js"}},
			Line:   "committed on the run's line; lands when the run completes"},
		{Kind: event.PhaseRetrying, Time: at(59), PhaseID: "2a", DisplayID: "2A", PhaseName: "Backend API",
			Attempt: 2, MaxAttempts: 2, Line: "retrying after test_failure with the failure as context"},
		{Kind: event.PhaseStarted, Time: at(59), PhaseID: "2a", DisplayID: "2A", PhaseName: "Backend API",
			Attempt: 2, MaxAttempts: 2, Agent: "codex"},
		{Kind: event.PhaseOutput, Time: at(60), PhaseID: "2a", DisplayID: "2A", Attempt: 2, Stream: "agent",
			Line: "Reading the failure report of attempt 1"},
		{Kind: event.PhaseFailed, Time: at(62), PhaseID: "2a", DisplayID: "2A", PhaseName: "Backend API",
			Attempt: 2, MaxAttempts: 2, Agent: "codex", Failure: agentError, DurationSeconds: 3},
		{Kind: event.PhaseBlocked, Time: at(62), PhaseID: "3", DisplayID: "3", PhaseName: "Integration",
			BlockedBy: []phaseid.Display{"2A"}},
		{Kind: event.RunHalted, Time: at(63), DurationSeconds: 63,
			Line: "phase 2A failed after 2 attempts (test_failure, then agent_error)"},
	}
}

// interruptedRun covers the kinds haltedRun does not: a rate-limit wait, an
// interrupted phase and an interrupted run, and a complete run.
func interruptedRun() []event.Event {
	return []event.Event{
		{Kind: event.PhaseRetrying, Time: at(5), PhaseID: "1", DisplayID: "1", Attempt: 1, MaxAttempts: 2,
			Line: "rate limited: trying again in 30s (does not use up the retry)"},
		{Kind: event.PhaseInterrupted, Time: at(7), PhaseID: "1", DisplayID: "1", Attempt: 1, MaxAttempts: 2},
		{Kind: event.RunInterrupted, Time: at(8), Line: "interrupted by the user"},
		{Kind: event.RunComplete, Time: at(3600), Line: "all phases complete"},
	}
}

func printPlain(events []event.Event, verbose bool) string {
	var buf bytes.Buffer
	p := &Plain{W: &buf, Verbose: verbose, Location: cet}
	for _, e := range events {
		p.Print(e)
	}
	return buf.String()
}

func printJSON(events []event.Event) string {
	var buf bytes.Buffer
	j := NewJSON(&buf)
	for _, e := range events {
		j.Print(e)
	}
	return buf.String()
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Equal(t, filepath.Join("testdata", name), got)
}

func TestPlainGolden(t *testing.T) {
	t.Parallel()
	golden(t, "halted.plain.golden", printPlain(haltedRun(), false))
	golden(t, "halted.verbose.golden", printPlain(haltedRun(), true))
}

func TestPlainLines(t *testing.T) {
	t.Parallel()
	got := printPlain(haltedRun(), false)
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	// Spot checks of the golden file, so a wrong -update stands out.
	require.Equal(t, "[11:30:00] RUN STARTED - docs/plan.md: 5 phases, commit=auto, agent claude", lines[0])
	require.Contains(t, lines, "[11:30:52] PHASE 2A FAILED - test_failure: test gate failed: 1 test failing (TestFormat) (attempt 1/2)")
	require.Contains(t, lines, "[11:30:11] PHASE 1 INTEGRATED - 4902ada feat(model): domain model")
	require.Contains(t, lines, "[11:30:58] PHASE 2B INTEGRATED - committed on the run's line; lands when the run completes")
	require.Contains(t, lines, "[11:31:02] PHASE 3 BLOCKED - by 2A")
	require.Equal(t, "[11:31:03] RUN HALTED - phase 2A failed after 2 attempts (test_failure, then agent_error)", lines[len(lines)-1])

	// A failure's details follow its line, every line of them indented
	// under the message (past "[hh:mm:ss] ").
	i := indexOf(lines, "[11:30:52] PHASE 2A FAILED")
	require.GreaterOrEqual(t, i, 0)
	require.Equal(t, "           --- FAIL: TestFormat (0.00s)", lines[i+1])
	require.Equal(t, "               format_test.go:12: Format(3) = \"3.000000\", want \"3\"", lines[i+2])
	// A failure without details is one line.
	j := indexOf(lines, "[11:31:02] PHASE 2A FAILED")
	require.Equal(t, "[11:31:02] PHASE 2A FAILED - agent_error: agent exited with status 1 (attempt 2/2)", lines[j])
	require.True(t, strings.HasPrefix(lines[j+1], "[11:31:02] PHASE 3 BLOCKED"), lines[j+1])

	// Without Verbose no output line is printed.
	require.NotContains(t, got, " | ")
	require.NotContains(t, got, "Reading the phase")
}

func TestPlainVerboseAddsOnlyOutputLines(t *testing.T) {
	t.Parallel()
	quiet := printPlain(haltedRun(), false)
	verbose := printPlain(haltedRun(), true)

	var outputs, rest []string
	for _, l := range strings.SplitAfter(verbose, "\n") {
		if strings.Contains(l, "]   ") && strings.Contains(l, " | ") {
			outputs = append(outputs, l)
		} else {
			rest = append(rest, l)
		}
	}
	require.Equal(t, quiet, strings.Join(rest, ""), "verbose output minus the output lines is the quiet output")
	require.Equal(t, []string{
		"[11:30:02]   1 | Reading the phase and the files it names\n",
		"[11:30:09]   1 | ok  \texample.com/notes/model\t0.012s\n",
		"[11:30:30]   2A | --- FAIL: TestFormat (0.00s)\n",
		"[11:31:00]   2A | Reading the failure report of attempt 1\n",
	}, outputs)
}

func TestPlainOtherKinds(t *testing.T) {
	t.Parallel()
	require.Equal(t, "[11:30:05] PHASE 1 RETRYING (attempt 1/2) - rate limited: trying again in 30s (does not use up the retry)\n"+
		"[11:30:07] PHASE 1 INTERRUPTED (attempt 1/2)\n"+
		"[11:30:08] RUN INTERRUPTED - interrupted by the user\n"+
		"[12:30:00] RUN COMPLETE - all phases complete\n",
		printPlain(interruptedRun(), false))
}

func TestPlainSkipsEventsWithoutALine(t *testing.T) {
	t.Parallel()
	got := printPlain([]event.Event{
		{Kind: event.GateResult, Time: at(1), DisplayID: "1"}, // no gate: nothing to say
		{Kind: event.Kind("from_the_future"), Time: at(2), DisplayID: "1", Line: "x"},
		{Kind: event.PhaseFailed, Time: at(3), DisplayID: "1"}, // no report: still a line
	}, true)
	require.Equal(t, "[11:30:03] PHASE 1 FAILED - \n", got)
}

func TestPlainFallsBackToPhaseIDAndLocalTime(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	p := &Plain{W: &buf} // no Location: the local zone
	e := event.Event{Kind: event.PhaseSkipped, Time: base, PhaseID: "2b", Line: "completed in an earlier run"}
	p.Print(e)
	require.Equal(t, "["+base.In(time.Local).Format("15:04:05")+"] PHASE 2b SKIPPED - completed in an earlier run\n", buf.String())
}

func TestJSONGolden(t *testing.T) {
	t.Parallel()
	golden(t, "halted.jsonl.golden", printJSON(append(haltedRun(), interruptedRun()...)))
}

func TestJSONRoundTrips(t *testing.T) {
	t.Parallel()
	events := append(haltedRun(), interruptedRun()...)
	out := printJSON(events)

	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	var got []event.Event
	for sc.Scan() {
		line := sc.Bytes()
		require.True(t, json.Valid(line), "not JSON: %s", line)

		var fields map[string]any
		require.NoError(t, json.Unmarshal(line, &fields))
		require.Contains(t, fields, "event")
		require.Contains(t, fields, "time")

		var e event.Event
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		require.NoError(t, dec.Decode(&e))
		got = append(got, e)
	}
	require.NoError(t, sc.Err())
	require.Len(t, got, len(events), "one line per event, output lines included")
	for i := range events {
		require.True(t, events[i].Time.Equal(got[i].Time), "event %d: time %v, want %v", i, got[i].Time, events[i].Time)
		got[i].Time = events[i].Time
	}
	require.Equal(t, events, got)
}

func TestJSONFieldNames(t *testing.T) {
	t.Parallel()
	lines := strings.Split(strings.TrimSuffix(printJSON(haltedRun()), "\n"), "\n")

	// Fields that do not apply are left out.
	require.JSONEq(t, `{"event":"run_started","time":"2026-03-14T10:30:00Z",
		"line":"docs/plan.md: 5 phases, commit=auto, agent claude"}`, lines[0])
	require.JSONEq(t, `{"event":"batch_started","time":"2026-03-14T10:30:11Z","batch":2,"phases":["2A","2B"]}`, lines[10])
	require.JSONEq(t, `{"event":"phase_output","time":"2026-03-14T10:30:30Z","phase_id":"2a","display_id":"2A",
		"attempt":1,"stream":"gate:test","line":"--- FAIL: TestFormat (0.00s)"}`, lines[13])
	// A gate's numbers are always there, zero or not.
	require.JSONEq(t, `{"event":"gate_result","time":"2026-03-14T10:30:09Z","phase_id":"1","display_id":"1",
		"phase_name":"Domain model","attempt":1,"max_attempts":2,
		"gate":{"kind":"build","command":"go build ./...","status":"passed","exit_code":0,"duration_seconds":1.25}}`, lines[6])
	require.JSONEq(t, `{"event":"phase_blocked","time":"2026-03-14T10:31:02Z","phase_id":"3","display_id":"3",
		"phase_name":"Integration","blocked_by":["2A"]}`, lines[22])

	var failed map[string]any
	require.NoError(t, json.Unmarshal([]byte(lines[15]), &failed))
	require.Equal(t, "phase_failed", failed["event"])
	rep, ok := failed["failure"].(map[string]any)
	require.True(t, ok, "failure is an object: %s", lines[15])
	require.Equal(t, "test_failure", rep["type"])
	require.Equal(t, []any{"TestFormat"}, rep["failing_tests"])
}

func TestIndentTail(t *testing.T) {
	t.Parallel()
	require.Equal(t, "", indentTail(""))
	require.Equal(t, "one line", indentTail("one line"))
	require.Equal(t, "a\n           b\n           c", indentTail("a\nb\nc"))
	require.Equal(t, "ünï\n           cödé", indentTail("ünï\ncödé"))
}

func indexOf(lines []string, prefix string) int {
	for i, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return i
		}
	}
	return -1
}

// Attack 5 (issue 25): the --json stream escapes C1 controls and bidi
// overrides, which encoding/json leaves raw.
func TestAttackJSONEscapesC1AndBidi(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	NewJSON(&b).Print(event.Event{Kind: event.PhaseStarted, PhaseName: "a\u202eb\u009bc"})
	require.NotContains(t, b.String(), "\u202e")
	require.NotContains(t, b.String(), "\u009b")
	require.Contains(t, b.String(), `a\u202eb\u009bc`)
}
