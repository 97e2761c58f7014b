package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
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
	require.Equal(t, askNothing, h.m.ask)
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

// On the completion screen `?` offers only keys that work (no r, F or c),
// and c says why there is nothing to copy.
func TestCompleteScreenHelpOffersOnlyWorkingKeys(t *testing.T) {
	t.Parallel()
	fake := &fakeController{runs: []chan event.Event{runChan(append(midRun(), completeEnd()...), true)}}
	h := newHarness(t, liveOptions(fake), 100, 30)
	h.init()
	h.until("the completion screen", func(m *Model) bool { return m.screen == screenSummary })
	h.key("?")
	help := h.screen()
	require.Contains(t, help, "close help")
	for _, gone := range []string{"resume after a halt", "start fresh", "copy the", "log of the failed phase"} {
		require.NotContains(t, help, gone)
	}
	h.key("?")
	h.key("c")
	require.Contains(t, squashSpaces(h.screen()), "The run is complete: there is no resume command to copy.")

	// On a halt they are all there.
	halt := newHarness(t, liveOptions(&fakeController{runs: []chan event.Event{runChan(append(midRun(), haltEnd()...), true)}}), 100, 30)
	halt.init()
	halt.until("the halt screen", func(m *Model) bool { return m.screen == screenSummary })
	halt.key("?")
	for _, there := range []string{"resume after a halt", "start fresh", "copy the commands", "log of the failed phase"} {
		require.Contains(t, halt.screen(), there)
	}
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
