package tui

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/notify"
	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/watch"
)

// A halt rings the bell and sends an OSC 9 notification to the terminal,
// once; the events before it send nothing.
func TestHaltSendsOSC9(t *testing.T) {
	t.Parallel()
	fake := &fakeController{t: t, runs: []chan event.Event{runChan(append(midRun(), haltEnd()...), true)},
		snapErr: errors.New("no state files in this test")}
	o := liveOptions(fake)
	o.Now = func() time.Time { return t0.Add(4 * time.Minute) }
	o.Alert = notify.Alert([]notify.Kind{notify.Halted}, func(string) string { return "" })
	tm := teatest.NewTestModel(t, New(o), teatest.WithInitialTermSize(80, 24),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	var seen []byte
	want := []byte("\a\x1b]9;autobuild halted: Phase 2B failed twice (test_failure)\a")
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		seen = append(seen, b...)
		return bytes.Contains(seen, want)
	}, teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	tm.Send(keyPress("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	require.Equal(t, 1, bytes.Count(seen, []byte("\x1b]9;")), "one notification")
}

// The header shows the spend against the budget: from the run's first
// event, each ended attempt's priced cost added as it ends.
func TestHeaderShowsSpendAgainstBudget(t *testing.T) {
	t.Parallel()
	m := New(liveOptions(&fakeController{t: t}))
	m.applyEvent(event.Event{Kind: event.RunStarted, Time: t0, Budget: &event.Budget{MaxCostUSD: 5, SpentUSD: 1}})
	done := ev(event.PhaseCompleted, "0", 10)
	done.Usage = &state.Usage{CostUSD: 2.2}
	m.applyEvent(done)
	run := m.run
	v := headerView{styles: viewStyles(), title: "Todo app", run: &run, phases: viewPhases(), state: "running", now: viewNow}
	v.SetSize(120)
	require.Contains(t, plain(v.Render()), "$3.20 of $5.00 budget")
}

// The header shows an agent's quota headroom, and the phases at once when
// the run lowered them; a window past its reset is no longer shown.
func TestHeaderShowsQuotaHeadroom(t *testing.T) {
	t.Parallel()
	m := New(liveOptions(&fakeController{t: t}))
	u, reset := 0.91, viewNow.Add(time.Hour)
	m.applyEvent(event.Event{Kind: event.AgentQuota, Time: t0, Agent: "claude",
		Quota: &event.Quota{Type: "five_hour", Status: "allowed_warning", Utilization: &u, ResetsAt: &reset, Parallel: 2, MaxParallel: 4}})
	run := m.run
	v := headerView{styles: viewStyles(), title: "Todo app", run: &run, phases: viewPhases(), state: "running", now: viewNow}
	v.SetSize(140)
	require.Contains(t, plain(v.Render()), "claude 91% used · 2 at once")
	v.now = reset.Add(time.Second)
	require.NotContains(t, plain(v.Render()), "91% used")
}

// watch shows the spend against the budget from the files.
func TestWatchShowsTheBudget(t *testing.T) {
	t.Parallel()
	ch := make(chan watch.Update, 1)
	h := newHarness(t, Options{Watch: ch, ReadOnly: true, Dir: "repo"}, 140, 24)
	h.init()
	live := newHarness(t, liveOptions(&fakeController{}), 80, 24)
	live.feed(midRun())
	snap := snapshotOf(live.m, state.RunRunning, "")
	snap.Run.MaxCostUSD = 2
	snap.Phases[0].Attempts = []state.Attempt{{Number: 1, Outcome: state.OutcomeComplete, Usage: &state.Usage{CostUSD: 0.5}}}
	ch <- watch.Update{Snapshot: snap}
	h.until("the run", func(m *Model) bool { return len(m.phases.rows) == 6 })
	require.Contains(t, strings.SplitN(h.screen(), "\n", 2)[0], "$0.50 of $2.00 budget")
}
