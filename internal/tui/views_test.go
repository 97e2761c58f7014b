package tui

import (
	"charm.land/bubbles/v2/key"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/summary"
)

// Each view renders alone, from plain data and a fixed size, without a
// Model: these tests build them directly.

// viewNow is the clock of the view tests.
var viewNow = t0.Add(3*time.Minute + 12*time.Second)

// viewStyles are colorless: the goldens compare text, and bold or reverse
// are stripped anyway.
func viewStyles() *Styles {
	s := NewStyles(true, false)
	return &s
}

// viewPhases is a small plan mid-run: one phase done, one running, one
// failed, one waiting for them; the ids are written "2-A", their ids "2a".
func viewPhases() *phaseSet {
	done := &phaseRow{id: "0", displayID: "0", name: "Bootstrap", batch: 1, status: stComplete, attempt: 1, maxAttempts: 2,
		agent: "claude", duration: 42, commit: &state.Commit{SHA: "a1b2c3d4e5f6", Message: "chore(repo): bootstrap"}, log: newRing(50)}
	running := &phaseRow{id: "2a", displayID: "2-A", name: "Backend API", batch: 2, status: stRunning, attempt: 1,
		maxAttempts: 2, agent: "codex", started: viewNow.Add(-75 * time.Second), last: "go test ./api/...", log: newRing(50)}
	for _, l := range []string{"Writing handlers for /todos", "go vet ./... ok", "go test ./api/..."} {
		running.log.add(l)
	}
	failed := &phaseRow{id: "2b", displayID: "2-B", name: "Frontend", batch: 2, status: stFailed, attempt: 2, maxAttempts: 2,
		agent: "claude", duration: 48, log: newRing(50),
		gates: []gateRow{{Kind: "test", Command: "npm test", Status: state.GateFailed, ExitCode: 1, DurationSeconds: 8}},
		failure: &failreport.Report{Type: failreport.TestFailure, Message: "1 test failed", Attempt: 2, Gate: "test",
			GateCommand: "npm test", FailingTests: []string{"ProfileCard formats the join date"}}}
	failed.log.add("npm test")
	waiting := &phaseRow{id: "3", displayID: "3", name: "Integration", batch: 3, dependsOn: []phaseid.ID{"2a", "2b"}, log: newRing(50)}
	return new(newPhaseSet([]*phaseRow{done, running, failed, waiting}))
}

// plain joins rendered lines without their styles.
func plain(lines []string) string { return ansi.Strip(strings.Join(lines, "\n")) }

// requireSize checks a render is at most h lines of at most w cells.
func requireSize(t *testing.T, lines []string, w, h int) {
	t.Helper()
	require.LessOrEqual(t, len(lines), h)
	for _, l := range lines {
		require.LessOrEqual(t, ansi.StringWidth(l), w, "%q", ansi.Strip(l))
	}
}

func TestHeaderViewAlone(t *testing.T) {
	t.Parallel()
	run := &runInfo{title: "Todo app", commitMode: "auto", agent: "claude", status: state.RunRunning, started: t0,
		usage: &state.Usage{InputTokens: 12300, OutputTokens: 4100, CostUSD: 0.42}}
	v := headerView{styles: viewStyles(), title: "Todo app", run: run, phases: viewPhases(), state: "running", now: viewNow}
	v.SetSize(100)
	lines := v.Render()
	require.Len(t, lines, headerHeight)
	requireSize(t, lines, 100, headerHeight)
	golden(t, "view_header_100", plain(lines))

	// Narrow: the title gives way to the facts, the bar to the counts.
	v.SetSize(50)
	lines = v.Render()
	requireSize(t, lines, 50, headerHeight)
	golden(t, "view_header_50", plain(lines))
}

func TestPhaseTableViewAlone(t *testing.T) {
	t.Parallel()
	v := phaseTable{styles: viewStyles(), phases: viewPhases(), now: viewNow, sel: 1}
	v.SetSize(80, 10)
	lines := v.Render()
	requireSize(t, lines, 80, 10)
	out := plain(lines)
	require.Contains(t, out, "▸ ⠋ 2-A", "the selected running phase, with the spinner")
	require.Contains(t, out, "waits for 2-A, 2-B", "a dependency's display id, from its row")
	golden(t, "view_table_80x10", out)

	// Three lines: the selection stays in view, its batch heading above it.
	v.sel = 2
	v.SetSize(80, 3)
	lines = v.Render()
	requireSize(t, lines, 80, 3)
	golden(t, "view_table_80x3", plain(lines))
}

func TestLogPaneViewAlone(t *testing.T) {
	t.Parallel()
	phases := viewPhases()
	p := logPane{styles: viewStyles(), phases: phases, now: viewNow, row: phases.byID["2b"], focused: true}
	p.view.reset()
	p.SetSize(80, 12)
	lines := p.Render()
	requireSize(t, lines, 80, 12)
	out := plain(lines)
	require.Contains(t, out, "2-B · Frontend · attempt 2/2 · claude · failed 48s")
	golden(t, "view_pane_failed_80x12", out)

	// A pending phase says what it waits for.
	p.row = phases.byID["3"]
	p.SetSize(60, 4)
	lines = p.Render()
	requireSize(t, lines, 60, 4)
	require.Contains(t, plain(lines), "Not started: waits for 2-A, 2-B.")

	// No phase, nothing to draw.
	p.row = nil
	require.Empty(t, p.Render())
}

func TestSummaryViewAlone(t *testing.T) {
	t.Parallel()
	finished := t0.Add(4 * time.Minute)
	run := &state.Run{PlanPath: "plan.md", PlanTitle: "Todo app", CommitMode: "auto", Agents: []string{"claude"},
		Status: state.RunHalted, HaltReason: "Phase 2-B failed twice (test_failure)", Started: t0, Updated: finished, Finished: &finished}
	var phases []*state.Phase
	for _, r := range viewPhases().rows {
		phases = append(phases, phasesFromRows([]*phaseRow{r})...)
	}
	v := newSummaryView()
	v.SetSize(80, 12)
	v.SetInput(&summary.Input{Run: run, Phases: phases, StateDir: ".autobuild/",
		ResumeCommand: "autobuild plan.md --resume", FreshCommand: "autobuild plan.md --fresh"})
	lines := v.Render()
	requireSize(t, lines, 80, 12)
	out := plain(lines)
	require.Contains(t, out, "AUTOBUILD HALTED")
	require.NotEmpty(t, v.scrollLabel(), "taller than 12 lines: it scrolls")
	golden(t, "view_summary_80x12", out)

	v.vp.GotoBottom()
	require.Contains(t, plain(v.Render()), "Resume: autobuild plan.md --resume   (c copies it)",
		"the commands unbroken under the box")
	require.Equal(t, " 100%", v.scrollLabel())
}

func TestFooterViewAlone(t *testing.T) {
	t.Parallel()
	keys := DefaultKeyMap()
	f := newFooterView(viewStyles())
	f.restyle()
	f.SetSize(80)
	f.short = []key.Binding{keys.List.Down, keys.List.Focus, keys.Run.Quit, keys.Run.Help, keys.List.Search}
	run := liveRun(t) // the `?` help of the list while the run goes on
	f.full = run.m.fullHelp()
	lines := f.Render()
	require.Len(t, lines, 1, "only the help line")
	require.Equal(t, "↑/↓ select • enter log • q quit • ? help • / filter", plain(lines))

	f.setNotice("Read-only. To resume, run: autobuild plan.md --resume", false)
	f.halting = 1
	f.fullHelp = true
	lines = f.Render()
	requireSize(t, lines, 80, 20)
	golden(t, "view_footer_80", plain(lines))

	// With less room, the reasons that do not fit whole are left out.
	f.helpRoom = 16
	out := plain(f.statusLines())
	require.Len(t, f.statusLines(), 15)
	require.Contains(t, out, "F: The run is still going")
	require.NotContains(t, out, "s: The summary comes", "two lines, one too many")
	require.NotContains(t, out, "c: Nothing to copy", "after one left out")
	f.helpRoom = 0

	// A question takes the last line; a second interrupt says it kills.
	f.fullHelp, f.halting, f.question = false, 2, "Halt the run and quit? y/n"
	out = plain(f.Render())
	require.Contains(t, out, "Killing the running phases…")
	require.True(t, strings.HasSuffix(out, "Halt the run and quit? y/n"))

	// The search prompt, with its keys from the search keymap.
	var s searchInput
	s.set("ProfileCard")
	f.question, f.search, f.searchHelp = "", &s, keys.Search.help()
	require.True(t, strings.HasSuffix(plain(f.Render()), "/ProfileCard   enter search · esc cancel"))
}

// With several agents (--agent claude --agent codex) the header names them
// all, in --agent order.
func TestHeaderNamesEveryAgent(t *testing.T) {
	t.Parallel()
	o := liveOptions(&fakeController{})
	o.Agent = "claude, codex"
	h := newHarness(t, o, 120, 30)
	h.feed(midRun())
	require.Contains(t, h.screen(), "agents claude, codex")
	require.Equal(t, []string{"claude", "codex"}, h.m.runFromRows().Agents)
}
