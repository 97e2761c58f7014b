package tui

import (
	"fmt"
	"image/color"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/runctl"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// The first hour's trips (issue 27), each driven through the model with
// messages as a user would meet it.

// A `q` question left open when the run completes by itself is closed on
// the completion screen: there is nothing left to halt.
func TestQuitQuestionClosedWhenTheRunCompletes(t *testing.T) {
	t.Parallel()
	ch := runChan(midRun(), false)
	fake := &fakeController{runs: []chan event.Event{ch}}
	h := newHarness(t, liveOptions(fake), 100, 30)
	h.init()
	h.until("the run", func(m *Model) bool { return m.phases.byID["2b"].status == stRunning })
	h.key("q")
	require.Contains(t, h.screen(), "Halt the run and quit? y/n")
	for _, e := range completeEnd() {
		ch <- e
	}
	close(ch)
	h.until("the completion screen", func(m *Model) bool { return m.screen == screenSummary })
	require.Nil(t, h.m.dialog)
	require.NotContains(t, h.screen(), "Halt the run and quit?")
	require.Contains(t, h.lastLine(), "q quit")
}

// After F, the header counts the fresh run's tokens and cost only.
func TestFreshResetsTheHeaderUsage(t *testing.T) {
	t.Parallel()
	first := append(midRun(), haltEnd()...)
	first[len(first)-1].Usage = &state.Usage{InputTokens: 50000, OutputTokens: 9000, CostUSD: 1.25}
	fake := &fakeController{runs: []chan event.Event{runChan(first, true), runChan([]event.Event{{Kind: event.RunStarted, Time: t0.Add(600e9)}}, false)}}
	h := newHarness(t, liveOptions(fake), 120, 30)
	h.init()
	h.until("the halt screen", func(m *Model) bool { return m.screen == screenSummary })
	require.Contains(t, strings.SplitN(h.screen(), "\n", 2)[0], "$1.25")
	h.key("F")
	h.key("y")
	h.until("the fresh run", func(m *Model) bool { return m.screen == screenRun && m.life.state == lifeRunning })
	header := strings.SplitN(h.screen(), "\n", 2)[0]
	require.NotContains(t, header, "$1.25", "the previous run's cost is not the fresh run's")
	require.NotContains(t, header, " in · ")

	c := completed("0", 620, 20, "abc1234", "chore: bootstrap")
	c[0].Usage = &state.Usage{InputTokens: 1000, OutputTokens: 100, CostUSD: 0.05}
	h.feed(c)
	require.Contains(t, strings.SplitN(h.screen(), "\n", 2)[0], "1k in · 100 out · $0.05")
}

// A row's last output is never a bare ``` fence (an agent's result object
// ends with one).
func TestRowLastOutputSkipsBareFences(t *testing.T) {
	t.Parallel()
	h := newHarness(t, liveOptions(&fakeController{}), 100, 24)
	h.feed(midRun())
	h.feed([]event.Event{output("2a", 181, "Wrote the handlers"), output("2a", 182, "```json"),
		output("2a", 183, `{"status": "complete"}`), output("2a", 184, "```"), output("2a", 185, "   ")})
	r := h.m.phases.byDisplay("2A")
	require.Equal(t, `{"status": "complete"}`, r.last)
	for _, l := range strings.Split(h.screen(), "\n") {
		if strings.Contains(l, "2A Backend API") {
			require.NotContains(t, l, "```", "the row")
		}
	}
	require.Contains(t, ringLines(r.log), "```", "the log keeps every line")
}

func ringLines(r *ring) []string {
	out := make([]string, r.len())
	for i := range out {
		out[i] = r.at(i)
	}
	return out
}

// s during a run says when the summary comes, rather than nothing; it is
// not on the help line until then.
func TestSummaryKeyDuringARun(t *testing.T) {
	t.Parallel()
	h := newHarness(t, liveOptions(&fakeController{}), 100, 24)
	h.feed(midRun())
	require.NotContains(t, h.lastLine(), "s summary")
	h.key("s")
	require.Contains(t, squashSpaces(h.screen()), "The summary comes when the run stops")
	require.Equal(t, screenRun, h.m.screen)
}

// On the completion screen `?` dims r, F and c and says why they do
// nothing; ctrl+c quits. On a halt they all work: no reason is given.
func TestCompleteScreenHelpSaysWhyKeysDoNothing(t *testing.T) {
	t.Parallel()
	fake := &fakeController{runs: []chan event.Event{runChan(append(midRun(), completeEnd()...), true)}}
	h := newHarness(t, liveOptions(fake), 100, 30)
	h.init()
	h.until("the completion screen", func(m *Model) bool { return m.screen == screenSummary })
	h.key("?")
	help := squashSpaces(h.screen())
	require.Contains(t, help, "close help")
	for _, why := range []string{"r: The run is complete: every phase is done, there is nothing to resume.",
		"c: The run is complete: there is no resume command to copy.", "F: The run is complete. To build the plan again"} {
		require.Contains(t, help, why)
	}
	require.NotContains(t, help, "halt (twice: kill)")
	require.Contains(t, help, "ctrl+c quit", "with no run going, ctrl+c quits")
	h.key("?")
	h.key("c")
	require.Contains(t, squashSpaces(h.screen()), "The run is complete: there is no resume command to copy.")

	// On a halt they are all there, and none says why it does nothing.
	halt := newHarness(t, liveOptions(&fakeController{runs: []chan event.Event{runChan(append(midRun(), haltEnd()...), true)}}), 100, 30)
	halt.init()
	halt.until("the halt screen", func(m *Model) bool { return m.screen == screenSummary })
	halt.key("?")
	for _, there := range []string{"resume after a halt", "start fresh", "copy the commands", "log of the failed phase"} {
		require.Contains(t, halt.screen(), there)
	}
	require.Empty(t, halt.m.fullHelp().notNow)
}

// → scrolls the log sideways with the offset shown; esc puts it back before
// it leaves the pane.
func TestSidewaysScrollShowsItsOffsetAndEscResets(t *testing.T) {
	t.Parallel()
	h := newHarness(t, liveOptions(&fakeController{}), 100, 24)
	h.feed(midRun())
	h.key("enter")
	h.key("right")
	h.key("right")
	require.Equal(t, 16, h.m.pane.view.xoff)
	require.Contains(t, h.screen(), "→16 esc")
	h.key("esc")
	require.Zero(t, h.m.pane.view.xoff)
	require.Equal(t, focusDetail, h.m.focus, "the first esc only resets the scroll")
	require.NotContains(t, h.screen(), "→16")
	h.key("esc")
	require.Equal(t, focusList, h.m.focus)

}

// The help line is readable: its descriptions are not bubbles' 239 on a
// dark background nor 249 on a light one.
func TestHelpLineContrast(t *testing.T) {
	t.Parallel()
	hex := func(s Styles) (string, string) {
		k, d := s.Help.ShortKey.GetForeground(), s.Help.ShortDesc.GetForeground()
		kr, kg, kb, _ := k.RGBA()
		dr, dg, db, _ := d.RGBA()
		return fmt.Sprintf("#%02X%02X%02X", kr>>8, kg>>8, kb>>8), fmt.Sprintf("#%02X%02X%02X", dr>>8, dg>>8, db>>8)
	}
	key, desc := hex(NewStyles(true, true))
	require.Equal(t, "#D0D0D0", key)
	require.Equal(t, "#A8A8A8", desc, "dark background")
	key, desc = hex(NewStyles(false, true))
	require.Equal(t, "#2E2E2E", key)
	require.Equal(t, "#5C5C5C", desc, "light background")
}

// When the halt knows its fix (the demo's), it is shown whole under the box
// and `c` copies it first, then the resume command.
func TestCopyTheFixThenTheResumeCommand(t *testing.T) {
	t.Parallel()
	o := liveOptions(&fakeController{runs: []chan event.Event{runChan(append(midRun(), haltEnd()...), true)}})
	o.FixCommand = "cp /tmp/demo/fix/format.go /tmp/demo/calc/calc/format.go && git -C /tmp/demo/calc commit -am 'fix: write Format'"
	h := newHarness(t, o, 80, 24)
	h.init()
	h.until("the halt screen", func(m *Model) bool { return m.screen == screenSummary })
	var descs []string
	for _, b := range h.m.shortHelp() {
		descs = append(descs, b.Help().Desc)
	}
	require.Contains(t, descs, "copy fix", "the help line names what c copies next")
	require.Contains(t, h.m.summary.vp.GetContent(), "\nFix (c copies it):\n  cp /tmp/demo/fix/format.go /tmp/demo/calc/calc/format.go && git -C \\\n")

	msg := fmt.Sprintf("%v", h.m.copyResume()())
	require.Contains(t, msg, o.FixCommand)
	require.Contains(t, h.m.footer.notice, "Copied the fix to the clipboard (c again copies the resume command)")
	msg = fmt.Sprintf("%v", h.m.copyResume()())
	require.Contains(t, msg, "autobuild plan.md --resume")
	require.NotContains(t, msg, "git -C")
}

// --exit-on-complete ends the UI once the run completes (its summary is
// then printed by the command); a halt still waits.
func TestExitOnComplete(t *testing.T) {
	t.Parallel()
	o := liveOptions(&fakeController{runs: []chan event.Event{runChan(append(midRun(), completeEnd()...), true)}})
	o.ExitOnComplete = true
	h := newHarness(t, o, 100, 30)
	h.init()
	h.until("the UI to quit", func(*Model) bool { return h.quit })
	require.Equal(t, state.RunComplete, h.m.Result().Status)

	o = liveOptions(&fakeController{runs: []chan event.Event{runChan(append(midRun(), haltEnd()...), true)}})
	o.ExitOnComplete = true
	halt := newHarness(t, o, 100, 30)
	halt.init()
	halt.until("the halt screen", func(m *Model) bool { return m.screen == screenSummary })
	halt.drain()
	require.False(t, halt.quit, "a halt waits for the user")

	// Without the option the completion screen stays until q.
	plain := newHarness(t, liveOptions(&fakeController{runs: []chan event.Event{runChan(append(midRun(), completeEnd()...), true)}}), 100, 30)
	plain.init()
	plain.until("the completion screen", func(m *Model) bool { return m.screen == screenSummary })
	plain.drain()
	require.False(t, plain.quit)
}

// The run's events end with its terminal event, and the channel closes
// after (the engine writes its state between): the summary's snapshot may
// come first. --exit-on-complete still ends the UI, when the channel closes.
func TestExitOnCompleteWhenTheSnapshotComesFirst(t *testing.T) {
	t.Parallel()
	ch := runChan(append(midRun(), completeEnd()...), false)
	o := liveOptions(&fakeController{runs: []chan event.Event{ch}})
	o.ExitOnComplete = true
	h := newHarness(t, o, 100, 30)
	h.init()
	h.until("the completion screen", func(m *Model) bool { return m.screen == screenSummary })
	h.drain()
	require.False(t, h.quit, "the run has not ended yet")
	close(ch)
	h.until("the UI to quit", func(*Model) bool { return h.quit })
	require.Equal(t, state.RunComplete, h.m.Result().Status)
}

// The mouse wheel scrolls the summary and the log pane, and moves the
// selection over the list; `m` gives the mouse back to the terminal.
func TestMouseWheel(t *testing.T) {
	t.Parallel()
	o := liveOptions(&fakeController{})
	o.Mouse = true
	h := newHarness(t, o, 100, 30)
	require.Equal(t, tea.MouseModeCellMotion, h.m.View().MouseMode)
	var evs []event.Event
	evs = append(evs, midRun()...)
	for i := range 60 {
		evs = append(evs, output("2a", 181, fmt.Sprintf("line %02d", i)))
	}
	h.feed(evs)
	h.m.selectRow(2) // 2A
	h.m.table.userMoved = true
	h.send(tea.MouseWheelMsg{X: 10, Y: 25, Button: tea.MouseWheelUp}) // over the pane
	require.False(t, h.m.pane.view.follow, "the wheel up pauses the log")
	top := h.m.pane.view.top
	h.send(tea.MouseWheelMsg{X: 10, Y: 25, Button: tea.MouseWheelUp})
	require.Equal(t, top-wheelLines, h.m.pane.view.top)
	h.send(tea.MouseWheelMsg{X: 10, Y: 3, Button: tea.MouseWheelDown}) // over the list
	require.Equal(t, 3, h.m.table.sel, "over the list it moves the selection")

	h.key("m")
	require.Equal(t, tea.MouseModeNone, h.m.View().MouseMode)
	require.Contains(t, squashSpaces(h.screen()), "Mouse off: the terminal selects text as usual")
	h.key("m")
	require.Equal(t, tea.MouseModeCellMotion, h.m.View().MouseMode)

	s := newHarness(t, Options{Mouse: true, Controller: &fakeController{runs: []chan event.Event{runChan(append(midRun(), haltEnd()...), true)}},
		Title: "Todo app", Batches: testBatches(), Commands: runctl.Commands{Resume: "autobuild plan.md --resume"}}, 80, 24)
	s.init()
	s.until("the halt screen", func(m *Model) bool { return m.screen == screenSummary })
	s.send(tea.MouseWheelMsg{X: 5, Y: 10, Button: tea.MouseWheelDown})
	require.Equal(t, wheelLines, s.m.summary.vp.YOffset())
}

// COLORFGBG says light or dark when the terminal does not answer the
// background query; the answer wins when it comes.
func TestCOLORFGBGFallback(t *testing.T) {
	t.Parallel()
	for v, dark := range map[string]bool{"": true, "15;0": true, "0;15": false, "0;default;7": false, "7;8": true, "junk": true, "0;11": false} {
		require.Equal(t, dark, darkFromCOLORFGBG(v), v)
	}
	o := liveOptions(&fakeController{})
	o.ColorFGBG = "0;15"
	h := newHarness(t, o, 80, 24)
	require.False(t, h.m.isDark, "a light background from COLORFGBG")
	h.send(tea.BackgroundColorMsg{Color: color.Black})
	require.True(t, h.m.isDark, "the terminal's answer wins")
}

// `/` in the list filters the phases as it is typed (k9s, gh-dash): the
// moves walk the rows shown, enter keeps the filter, esc shows all again.
func TestSlashFiltersThePhaseList(t *testing.T) {
	t.Parallel()
	h := newHarness(t, liveOptions(&fakeController{}), 100, 30)
	h.feed(midRun())
	h.key("/")
	require.True(t, h.m.filtering)
	require.Contains(t, h.lastLine(), "filter phases")
	h.typeText("running")
	screen := h.screen()
	require.Contains(t, screen, "filter /running: 3 of 6 phases · esc shows all")
	require.Contains(t, screen, "2A Backend API")
	require.NotContains(t, screen, "Bootstrap")
	require.NotContains(t, screen, "Batch 1")
	h.key("enter")
	require.False(t, h.m.filtering)
	require.Equal(t, "running", h.m.table.filter)

	h.key("g")
	require.Equal(t, phaseid.Display("2A"), h.m.selected().displayID)
	h.key("down")
	h.key("down")
	require.Equal(t, phaseid.Display("2C"), h.m.selected().displayID)
	h.key("down")
	require.Equal(t, phaseid.Display("2C"), h.m.selected().displayID, "3 is not shown: the selection stays")

	h.key("esc")
	require.Empty(t, h.m.table.filter)
	require.Contains(t, h.screen(), "Bootstrap")
	require.Equal(t, focusList, h.m.focus)

	// By id or name, smart case; a new filter starts empty.
	h.key("/")
	require.Empty(t, h.m.filterInput.text())
	h.typeText("data")
	require.Contains(t, h.screen(), "filter /data: 1 of 6 phases")
	require.Equal(t, phaseid.Display("1"), h.m.selected().displayID, "the selection moves to a shown row")
	h.key("esc")
	require.False(t, h.m.filtering)
	require.Empty(t, h.m.table.filter, "esc in the prompt drops the filter")

	// From the log pane, / searches the log.
	h.key("enter")
	h.key("/")
	require.True(t, h.m.pane.searching)
	require.False(t, h.m.filtering)
}

// The `?` help dims a key that does nothing now: r on the completion
// screen, not on a halt.
func TestFullHelpDimsKeysThatDoNothing(t *testing.T) {
	t.Parallel()
	h := completeRun(t)
	h.key("?")
	dim := h.m.styles.Dim.Render("resume after a halt")
	require.NotEqual(t, "resume after a halt", dim, "the test's styles have color")
	require.Contains(t, h.m.View().Content, dim)

	halt := haltedRun(t)
	halt.key("?")
	require.NotContains(t, halt.m.View().Content, dim)
	require.Contains(t, halt.m.View().Content, halt.m.styles.Help.FullDesc.Render("resume after a halt"))
}
