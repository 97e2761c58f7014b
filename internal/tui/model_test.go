package tui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/runctl"
	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/watch"
)

// runChan returns a buffered channel holding evs, closed when close is set.
func runChan(evs []event.Event, closeIt bool) chan event.Event {
	ch := make(chan event.Event, len(evs)+1)
	for _, e := range evs {
		ch <- e
	}
	if closeIt {
		close(ch)
	}
	return ch
}

func TestUpdateNeverCallsControllerSynchronously(t *testing.T) {
	t.Parallel()
	run1 := runChan(midRun(), false)
	fake := &fakeController{runs: []chan event.Event{run1, runChan(append(midRun(), completeEnd()...), true)}}
	h := newHarness(t, liveOptions(fake), 80, 24)
	h.init()
	h.until("the first events", func(m *Model) bool { return m.run.status == state.RunRunning })

	// Quit mid-run: asks, then interrupts through a Cmd.
	h.key("q")
	require.Contains(t, h.screen(), "Halt the run and quit? y/n")
	h.key("y")
	h.until("the interrupt", func(*Model) bool { _, n := fake.counts(); return n == 1 })
	h.key("ctrl+c")
	h.until("the second interrupt", func(*Model) bool { _, n := fake.counts(); return n == 2 })
	require.Contains(t, h.screen(), "Killing the running phases")

	// The run ends; the model quits once the channel is closed.
	for _, e := range haltEnd() {
		run1 <- e
	}
	close(run1)
	h.until("quit", func(*Model) bool { return h.quit })
	require.Equal(t, state.RunHalted, h.m.Result().Status)
	starts, _ := fake.counts()
	require.Equal(t, []runctl.Mode{runctl.New}, starts)
}

// A controller whose calls block must not block Update: Update only returns
// Cmds, which run elsewhere.
func TestUpdateDoesNotWaitForABlockedController(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	ctl := &blockingController{release: release}
	m := New(liveOptions(nil))
	m.opts.Controller = ctl
	m.noTick = true
	done := make(chan tea.Cmd)
	go func() {
		cmd := m.Init()
		m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		m.Update(eventsMsg{gen: m.life.gen, events: midRun()})
		m.Update(keyPress("ctrl+c"))
		_, c := m.Update(eventsMsg{gen: m.life.gen, events: haltEnd()})
		m.View()
		done <- tea.Batch(cmd, c)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("Update blocked on the controller")
	}
	require.Zero(t, ctl.calls.Load(), "the controller was called before any Cmd ran")
	close(release)
}

func TestQuitAsksAndCanBeCancelled(t *testing.T) {
	t.Parallel()
	fake := &fakeController{runs: []chan event.Event{runChan(midRun(), false)}}
	h := newHarness(t, liveOptions(fake), 80, 24)
	h.init()
	h.until("running", func(m *Model) bool { return m.run.status == state.RunRunning })
	h.key("q")
	require.Equal(t, "Halt the run and quit? y/n", h.m.dialog.prompt)
	h.key("n")
	require.Nil(t, h.m.dialog)
	h.drain()
	_, n := fake.counts()
	require.Zero(t, n)
	require.False(t, h.quit)
	require.NotContains(t, h.screen(), "Halt the run")
}

func TestQuitWithoutARunIsImmediate(t *testing.T) {
	t.Parallel()
	h := newHarness(t, liveOptions(&fakeController{}), 80, 24)
	h.init()
	h.until("the empty run to end", func(m *Model) bool { return !m.life.active() })
	h.key("q")
	h.drain()
	require.True(t, h.quit)
}

func TestResumeInPlaceAfterAHalt(t *testing.T) {
	t.Parallel()
	resumed := []event.Event{{Kind: event.RunStarted, Time: t0.Add(300 * time.Second)}}
	for _, id := range []phaseid.ID{"0", "1", "2a", "2c"} {
		e := ev(event.PhaseSkipped, id, 300)
		e.Line = "completed by an earlier run"
		resumed = append(resumed, e)
	}
	resumed = append(resumed, started("2b", 301, 1), output("2b", 302, "fixed by hand, re-running"))
	resumed = append(resumed, completed("2b", 320, 19, "e5f6a7b8c9d0", "feat(ui): add the profile card")...)
	resumed = append(resumed, started("3", 321, 1))
	resumed = append(resumed, completed("3", 350, 29, "f6a7b8c9d0e1", "feat(app): integrate")...)
	resumed = append(resumed, event.Event{Kind: event.RunComplete, Time: t0.Add(351 * time.Second)})

	fake := &fakeController{runs: []chan event.Event{
		runChan(append(midRun(), haltEnd()...), true),
		runChan(resumed, true),
	}}
	h := newHarness(t, liveOptions(fake), 80, 24)
	fake.snapErr = errors.New("no state in this test")
	h.init()
	h.until("the halt screen", func(m *Model) bool { return m.screen == screenSummary })
	require.Contains(t, h.screen(), "AUTOBUILD HALTED")
	require.Contains(t, h.screen(), "r resume")

	h.key("r")
	require.Contains(t, h.screen(), "Resuming…")
	h.until("the run view", func(m *Model) bool { return m.screen == screenRun })
	require.Equal(t, stPending, h.m.phases.byID["2b"].status)
	require.Equal(t, stComplete, h.m.phases.byID["2a"].status, "completed phases stay complete")
	h.until("the completion screen", func(m *Model) bool { return m.screen == screenSummary })
	require.Contains(t, h.screen(), "AUTOBUILD COMPLETE")
	require.Equal(t, stComplete, h.m.phases.byID["0"].status, "a phase completed earlier keeps its check mark")
	starts, _ := fake.counts()
	require.Equal(t, []runctl.Mode{runctl.New, runctl.Resume}, starts)
	require.Equal(t, state.RunComplete, h.m.Result().Status)
}

func TestFreshAsksFirst(t *testing.T) {
	t.Parallel()
	fake := &fakeController{runs: []chan event.Event{runChan(append(midRun(), haltEnd()...), true)}}
	h := newHarness(t, liveOptions(fake), 80, 24)
	h.init()
	h.until("the halt screen", func(m *Model) bool { return m.screen == screenSummary })
	h.key("F")
	require.Contains(t, h.screen(), "Start fresh? Deletes .autobuild/; all phases run again; commits stay. y/n")
	h.key("n")
	starts, _ := fake.counts()
	require.Len(t, starts, 1)
	h.key("F")
	h.key("y")
	h.until("the fresh start", func(m *Model) bool { s, _ := fake.counts(); return len(s) == 2 && !m.life.awaitingStart() })
	starts, _ = fake.counts()
	require.Equal(t, runctl.Fresh, starts[1])
	require.Zero(t, h.m.phases.byID["2b"].log.len(), "a fresh run starts with empty logs")
}

func TestLateMessagesOfAnOldRunAreDropped(t *testing.T) {
	t.Parallel()
	h := newHarness(t, liveOptions(&fakeController{}), 80, 24)
	h.feed(midRun())
	old := h.m.life.gen
	h.finish(haltEnd())
	h.m.startRun(runctl.Resume)
	h.send(eventsMsg{gen: old, events: []event.Event{output("2a", 400, "late line")}})
	h.send(snapshotMsg{gen: old, err: errors.New("late")})
	require.NotEqual(t, "late line", h.m.phases.byID["2a"].log.last())
	require.Equal(t, screenRun, h.m.screen)
}

func TestStartFailureIsShown(t *testing.T) {
	t.Parallel()
	fake := &fakeController{startErr: errors.New("another run holds the lock (pid 42)")}
	h := newHarness(t, liveOptions(fake), 80, 24)
	h.init()
	h.until("the failure", func(m *Model) bool { return m.life.err != nil })
	require.Contains(t, h.screen(), "could not start the run: another run holds the lock (pid 42)")
	require.ErrorContains(t, h.m.Result().StartErr, "lock")
	h.key("q")
	h.drain()
	require.True(t, h.quit)
}

func TestSummaryFallsBackToEventsWhenStateIsUnreadable(t *testing.T) {
	t.Parallel()
	h := newHarness(t, liveOptions(&fakeController{}), 100, 30)
	h.feed(midRun())
	h.finish(haltEnd())
	h.send(snapshotMsg{gen: h.m.life.gen, err: errors.New("run.json is corrupt")})
	out := h.screen()
	require.Contains(t, out, "AUTOBUILD HALTED")
	require.Contains(t, out, "Phase 2B: Frontend")
	require.Contains(t, out, "could not read the state files: run.json is corrupt")
}

func TestDetailFollowScrollAndSearch(t *testing.T) {
	t.Parallel()
	h := newHarness(t, liveOptions(&fakeController{}), 80, 24)
	h.feed(midRun())
	var lines []event.Event
	for i := range 100 {
		lines = append(lines, output("2a", 181, fmt.Sprintf("line %03d", i)))
	}
	lines = append(lines, output("2a", 182, "a NEEDLE in the log"), output("2a", 182, "another needle"), output("2a", 182, "the end"))
	h.feed(lines)
	require.Equal(t, phaseid.ID("2a"), h.m.selected().id)
	h.key("enter")
	require.Equal(t, focusDetail, h.m.focus)
	require.Contains(t, h.screen(), "the end")
	require.Contains(t, h.screen(), "following")

	// Scrolling up pauses follow mode: new lines do not move the view.
	h.key("k")
	h.key("pgup")
	require.False(t, h.m.pane.view.follow)
	require.Contains(t, h.screen(), "paused · G follows")
	h.feed([]event.Event{output("2a", 183, "new while paused")})
	_, pane, _ := strings.Cut(h.screen(), "paused · G follows")
	require.NotContains(t, pane, "new while paused")
	h.key("G")
	require.True(t, h.m.pane.view.follow)
	require.Contains(t, h.screen(), "new while paused")
	h.key("k")
	require.False(t, h.m.pane.view.follow)
	h.key("end")
	require.True(t, h.m.pane.view.follow, "End follows again too")
	// tab goes back to the list and into the pane again.
	h.key("tab")
	require.Equal(t, focusList, h.m.focus)
	h.key("tab")
	require.Equal(t, focusDetail, h.m.focus)

	// Smart-case search: lower case matches both.
	h.key("/")
	require.True(t, h.m.pane.searching)
	h.typeText("needlx")
	h.key("backspace")
	h.typeText("e")
	require.Contains(t, h.screen(), "/needle")
	h.key("enter")
	require.Equal(t, 2, h.m.pane.view.count)
	require.Contains(t, h.screen(), "/needle 1/2", "the match's position among them")
	first := h.m.pane.view.cur
	h.key("n")
	require.Equal(t, first+1, h.m.pane.view.cur)
	require.Contains(t, h.screen(), "/needle 2/2")
	h.key("n")
	require.Equal(t, first, h.m.pane.view.cur, "n wraps around")
	h.key("N")
	require.Equal(t, first+1, h.m.pane.view.cur)
	h.key("esc")
	require.Empty(t, h.m.pane.view.query, "esc clears the search first")
	h.key("esc")
	require.Equal(t, focusList, h.m.focus)

	// Upper case in the query makes it case-sensitive. (From the list, /
	// filters the phases: the log's search is the pane's.)
	h.key("tab")
	h.key("/")
	h.typeText("NEEDLE")
	h.key("enter")
	require.Equal(t, 1, h.m.pane.view.count)

	// A new search starts empty: "Format" then "zzz" searches "zzz".
	h.key("/")
	require.Empty(t, h.m.pane.search.text(), "the prompt does not keep the previous query")
	h.typeText("zzz")
	h.key("enter")
	require.Equal(t, "zzz", h.m.pane.view.query)
	require.Contains(t, h.screen(), "/zzz no match")
}

func TestSelectionMovesAndResetsTheDetailPane(t *testing.T) {
	t.Parallel()
	h := newHarness(t, liveOptions(&fakeController{}), 80, 24)
	h.feed(midRun())
	h.key("j")
	require.Equal(t, phaseid.ID("2b"), h.m.selected().id)
	h.feed([]event.Event{started("2c", 190, 2)})
	require.Equal(t, phaseid.ID("2b"), h.m.selected().id, "the selection stays where the user put it")
	h.key("g")
	require.Equal(t, phaseid.ID("0"), h.m.selected().id)
	h.key("G")
	require.Equal(t, phaseid.ID("3"), h.m.selected().id)
	h.key("up")
	require.Equal(t, phaseid.ID("2c"), h.m.selected().id)
}

func TestHelpToggles(t *testing.T) {
	t.Parallel()
	h := newHarness(t, liveOptions(&fakeController{}), 100, 30)
	h.feed(midRun())
	require.NotContains(t, h.screen(), "start fresh (asks)")
	h.key("?")
	require.Contains(t, h.screen(), "start fresh (asks)")
	require.Len(t, strings.Split(h.screen(), "\n"), 30)
	h.key("?")
	require.NotContains(t, h.screen(), "start fresh (asks)")
}

// Every screen fits the terminal exactly, at any size.
func TestViewFitsEverySize(t *testing.T) {
	t.Parallel()
	h := newHarness(t, liveOptions(&fakeController{}), 80, 24)
	h.feed(midRun())
	check := func(w, hgt int) {
		h.send(tea.WindowSizeMsg{Width: w, Height: hgt})
		lines := strings.Split(h.m.View().Content, "\n")
		require.Len(t, lines, hgt, "%dx%d", w, hgt)
		for i, l := range lines {
			require.LessOrEqual(t, ansi.StringWidth(l), w, "%dx%d line %d: %q", w, hgt, i, ansi.Strip(l))
		}
	}
	for _, sz := range [][2]int{{80, 24}, {100, 30}, {120, 40}, {200, 60}, {40, 12}, {30, 8}, {20, 6}} {
		check(sz[0], sz[1])
	}
	h.finish(haltEnd())
	h.send(snapshotMsg{gen: h.m.life.gen, snap: snapshotOf(h.m, state.RunHalted, "Phase 2B failed twice")})
	for _, sz := range [][2]int{{80, 24}, {100, 30}, {200, 60}, {40, 12}} {
		check(sz[0], sz[1])
	}
	h.key("?")
	check(80, 24)
}

func TestNoColorHasNoColors(t *testing.T) {
	t.Parallel()
	o := liveOptions(&fakeController{})
	o.NoColor = true
	h := newHarness(t, o, 80, 24)
	h.feed(midRun())
	out := h.m.View().Content
	require.NotContains(t, out, "38;2;", "no foreground colors")
	require.NotContains(t, out, "48;2;", "no background colors")
	require.Contains(t, out, "\x1b[7m", "the selection is drawn in reverse video")

	colored := newHarness(t, liveOptions(&fakeController{}), 80, 24)
	colored.feed(midRun())
	require.Contains(t, colored.m.View().Content, "38;2;")
	dark := colored.m.View().Content
	colored.send(tea.BackgroundColorMsg{Color: whiteColor{}})
	require.NotEqual(t, dark, colored.m.View().Content, "a light background changes the palette")

	// A terminal without colors drops them too.
	colored.send(tea.ColorProfileMsg{Profile: 2})
	require.NotContains(t, colored.m.View().Content, "38;2;")
}

type whiteColor struct{}

func (whiteColor) RGBA() (r, g, b, a uint32) { return 0xffff, 0xffff, 0xffff, 0xffff }

func TestWatchMode(t *testing.T) {
	t.Parallel()
	ch := make(chan watch.Update, 4)
	h := newHarness(t, Options{Watch: ch, ReadOnly: true, Dir: "repo", Commands: watchCommands("")}, 80, 24)
	h.init()
	require.Contains(t, h.screen(), "Waiting for a run in repo")

	live := newHarness(t, liveOptions(&fakeController{}), 80, 24)
	live.feed(midRun())
	ch <- watch.Update{Snapshot: snapshotOf(live.m, state.RunRunning, ""), Lines: map[phaseid.ID][]string{"2b": {"from the log file"}}}
	h.until("the run", func(m *Model) bool { return len(m.phases.rows) == 6 })
	require.Contains(t, h.screen(), "running · 2 done")
	require.Equal(t, "from the log file", h.m.phases.byID["2b"].last)

	h.key("F")
	require.Contains(t, squashSpaces(h.screen()), "Read-only. To start over, stop the run (ctrl+c where it runs), then run: autobuild plan.md --fresh")

	// The run halts: the summary opens, r explains how to resume.
	live.finish(haltEnd())
	ch <- watch.Update{Snapshot: snapshotOf(live.m, state.RunHalted, "Phase 2B failed twice")}
	h.until("the halt", func(m *Model) bool { return m.screen == screenSummary })
	require.Contains(t, h.screen(), "AUTOBUILD HALTED")
	require.Contains(t, h.screen(), "r how to resume")
	h.key("r")
	require.Contains(t, h.screen(), "Read-only. To resume, run: autobuild plan.md --resume")

	// Resumed elsewhere: back to the run view.
	snap := snapshotOf(live.m, state.RunRunning, "")
	ch <- watch.Update{Snapshot: snap}
	h.until("the run view", func(m *Model) bool { return m.screen == screenRun })

	// A fresh run elsewhere replaces the rows.
	fresh := snapshotOf(live.m, state.RunRunning, "")
	fresh.Run.Started = t0.Add(time.Hour)
	fresh.Phases = fresh.Phases[:1]
	ch <- watch.Update{Snapshot: fresh, Err: errors.New(".autobuild/phases/phase-1.json is corrupt")}
	h.until("the fresh run", func(m *Model) bool { return len(m.phases.rows) == 1 })
	require.Contains(t, h.screen(), "state: .autobuild/phases/phase-1.json is corrupt")

	close(ch)
	h.until("the end of the watch", func(m *Model) bool { return m.watchClosed })
	require.Contains(t, h.screen(), "The watch stopped")
	h.key("q")
	h.drain()
	require.True(t, h.quit, "q quits a watch at once")
}

// The watch knows the plan only from run.json: its hints name it there.
func TestWatchHintsNameTheRunsPlan(t *testing.T) {
	t.Parallel()
	ch := make(chan watch.Update, 2)
	h := newHarness(t, Options{Watch: ch, ReadOnly: true, Dir: "repo", Commands: watchCommands("cd repo && ")}, 100, 30)
	h.init()
	live := newHarness(t, liveOptions(&fakeController{}), 80, 24)
	live.feed(midRun())
	live.finish(haltEnd())
	snap := snapshotOf(live.m, state.RunHalted, "Phase 2B failed twice")
	snap.Run.PlanPath = "docs/my plan.md"
	// A preset's name is its --agent value; a command-line agent is
	// recorded by its program's name only, which --agent would not take.
	snap.Run.Agents = []string{"claude", "fix.sh"}
	ch <- watch.Update{Snapshot: snap}
	h.until("the halt", func(m *Model) bool { return m.screen == screenSummary })
	h.key("r")
	require.Contains(t, h.screen(), "To resume, run: cd repo && autobuild 'docs/my plan.md' --resume")
	h.key("F")
	require.Contains(t, h.screen(), "To start over, run: cd repo && autobuild 'docs/my plan.md' --fresh --commit=auto")
	require.NotContains(t, h.m.footer.notice, "fix.sh")
}

func TestRingKeepsTheTail(t *testing.T) {
	t.Parallel()
	r := newRing(3)
	require.Equal(t, "", r.last())
	for i := range 7 {
		r.add(fmt.Sprint(i))
	}
	require.Equal(t, 3, r.len())
	require.Equal(t, int64(4), r.first())
	require.Equal(t, []string{"4", "5", "6"}, []string{r.at(0), r.at(1), r.at(2)})
	r.reset()
	require.Zero(t, r.len())
}

func TestSanitize(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"\x1b[31mred\x1b[0m text", "red text"},
		{"a\tb", "a    b"},
		{"bell\a and cr\r", "bell and cr"},
		{"\x1b[2J\x1b[Hcleared", "cleared"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, sanitize(tt.in), "%q", tt.in)
	}
	long := sanitize(strings.Repeat("é", maxLineBytes))
	require.LessOrEqual(t, len(long), maxLineBytes+len("…"))
	require.True(t, strings.HasSuffix(long, "…"))
}

// The demo knows its own fix: the halt screen gives it as the first resume
// step, so a user watching the UI knows what to run before pressing r.
func TestHaltScreenShowsTheKnownFixFirst(t *testing.T) {
	t.Parallel()
	fake := &fakeController{}
	opts := liveOptions(fake)
	opts.FixStep = "Demo: the fix for 2B is ready: cp fix/format.go calc/"
	h := newHarness(t, opts, 100, 30)
	h.feed(midRun())
	h.finish(haltEnd())
	snap := snapshotOf(h.m, state.RunHalted, "Phase 2B failed twice (test_failure)")
	fake.setSnapshot(snap)
	h.send(snapshotMsg{gen: h.m.life.gen, snap: snap})
	h.key("G")
	require.Contains(t, h.screen(), "1. Demo: the fix for 2B is ready: cp fix/format.go calc/")
}
