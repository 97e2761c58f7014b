package tui

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/runctl"
	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/watch"
)

// lastLine is the bottom line of the screen: the help line.
func (h *harness) lastLine() string {
	lines := strings.Split(h.screen(), "\n")
	return lines[len(lines)-1]
}

// After a complete run, r and F are not offered, and pressing them explains
// why instead of starting a run.
func TestCompleteRunOffersNoResume(t *testing.T) {
	t.Parallel()
	fake := &fakeController{runs: []chan event.Event{runChan(append(midRun(), completeEnd()...), true)}}
	h := newHarness(t, liveOptions(fake), 100, 30)
	h.init()
	h.until("the completion screen", func(m *Model) bool { return m.screen == screenSummary })
	require.Contains(t, h.screen(), "AUTOBUILD COMPLETE")
	help := h.lastLine()
	require.NotContains(t, help, "resume")
	require.NotContains(t, help, "fresh")
	require.Contains(t, help, "q quit")

	h.key("r")
	require.Contains(t, h.screen(), "The run is complete: every phase is done, there is nothing to resume.")
	require.Equal(t, screenSummary, h.m.screen)
	h.key("F")
	require.Nil(t, h.m.dialog, "F does not offer to start over")
	require.Contains(t, squashSpaces(h.screen()),
		"The run is complete. To build the plan again from the start, quit and run: autobuild plan.md --fresh --commit=auto")
	h.drain()
	starts, _ := fake.counts()
	require.Equal(t, []runctl.Mode{runctl.New}, starts, "neither key started a run")

	// The run view after completion offers the summary, still no r or F.
	h.key("esc")
	help = h.lastLine()
	require.Contains(t, help, "s summary")
	require.NotContains(t, help, "resume")
	require.NotContains(t, help, "fresh")
}

// An interrupted run (ctrl+c in another process, seen by a watch) still
// offers how to resume; a complete one does not.
func TestWatchOfACompleteRunOffersNoResume(t *testing.T) {
	t.Parallel()
	ch := make(chan watch.Update, 2)
	h := newHarness(t, Options{Watch: ch, ReadOnly: true, Dir: "repo", Commands: watchCommands("")}, 100, 30)
	h.init()
	h.key("r")
	require.Contains(t, h.screen(), "Read-only, and there is no run yet to resume.")

	live := newHarness(t, liveOptions(&fakeController{}), 100, 30)
	live.feed(midRun())
	live.m.run.status = ""
	ch <- watch.Update{Snapshot: snapshotOf(live.m, state.RunInterrupted, "interrupted (ctrl+c)")}
	h.until("the interruption", func(m *Model) bool { return m.screen == screenSummary })
	require.Contains(t, h.lastLine(), "r how to resume")

	live.feed(completeEnd())
	ch <- watch.Update{Snapshot: snapshotOf(live.m, state.RunComplete, "")}
	h.until("the completion", func(m *Model) bool { return m.run.status == state.RunComplete })
	require.NotContains(t, h.lastLine(), "resume")
	h.key("r")
	require.Contains(t, h.screen(), "there is nothing to resume")
	h.key("F")
	require.Contains(t, squashSpaces(h.screen()), "quit and run: autobuild plan.md --fresh --commit=auto")
}

// A notice holding a command wraps between words instead of losing the
// command's end, and the screen still fits.
func TestLongNoticeWrapsAndFits(t *testing.T) {
	t.Parallel()
	dir := "/home/someone/src/a-project-with-a-rather-long-name/and/a/deep/checkout"
	ch := make(chan watch.Update, 1)
	h := newHarness(t, Options{Watch: ch, ReadOnly: true, Dir: dir, Commands: watchCommands("cd " + dir + " && ")}, 80, 24)
	h.init()
	live := newHarness(t, liveOptions(&fakeController{}), 80, 24)
	live.feed(midRun())
	live.finish(haltEnd())
	ch <- watch.Update{Snapshot: snapshotOf(live.m, state.RunHalted, "Phase 2B failed twice")}
	h.until("the halt", func(m *Model) bool { return m.screen == screenSummary })
	h.key("r")
	want := "Read-only. To resume, run: cd " + dir + " && autobuild plan.md --resume"
	lines := strings.Split(h.m.View().Content, "\n")
	require.Len(t, lines, 24)
	for i, l := range lines {
		require.LessOrEqual(t, ansi.StringWidth(l), 80, "line %d", i)
	}
	require.Contains(t, squashSpaces(h.screen()), squashSpaces(want), "the whole command is on the screen")
	require.NotContains(t, h.screen(), "--\nresume", "never broken at a hyphen")
	require.Contains(t, h.screen(), "AUTOBUILD HALTED", "the summary keeps the rest of the screen")
}

func TestWrapWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		w, n int
		want []string
	}{
		{"a b c", 10, 3, []string{"a b c"}},
		{"run: autobuild plan.md --resume", 16, 3, []string{"run: autobuild", "plan.md --resume"}},
		{"x abcdefghij y", 4, 5, []string{"x", "abcd", "efgh", "ij y"}},
		{"one two three four five", 9, 2, []string{"one two", "three …"}},
		{"one two abcdefghi x", 9, 2, []string{"one two", "abcdefgh…"}},
		{"", 10, 3, nil},
	}
	for _, tt := range tests {
		got := wrapWords(tt.in, tt.w, tt.n)
		require.Equal(t, tt.want, got, "%q in %d×%d", tt.in, tt.w, tt.n)
		for _, l := range got {
			require.LessOrEqual(t, width(l), tt.w, "%q", l)
		}
	}
}

// A double-width rune in a one-column line goes out alone, wider than asked,
// instead of wrapping forever (ansi.Cut gives nothing that fits).
func TestWrapWordsEndsOnAWideRune(t *testing.T) {
	t.Parallel()
	done := make(chan []string, 1)
	go func() { done <- wrapWords("日本 x", 1, 3) }()
	select {
	case got := <-done:
		require.Equal(t, []string{"日", "本", "x"}, got)
	case <-time.After(5 * time.Second):
		t.Fatal("wrapWords did not end")
	}
}

// A summary that fits shows no scroll position; after scrolling to the
// bottom, a taller terminal shows the whole summary, not blank lines.
func TestSummaryScrollSurvivesResize(t *testing.T) {
	t.Parallel()
	h := newHarness(t, liveOptions(&fakeController{}), 80, 24)
	h.feed(midRun())
	h.finish(completeEnd())
	h.send(snapshotMsg{gen: h.m.life.gen, snap: snapshotOf(h.m, state.RunComplete, "")})
	require.NotContains(t, h.lastLine(), "%", "the completion summary fits at 80×24")

	h = newHarness(t, liveOptions(&fakeController{}), 80, 24)
	h.feed(midRun())
	h.finish(haltEnd())
	h.send(snapshotMsg{gen: h.m.life.gen, snap: snapshotOf(h.m, state.RunHalted, "Phase 2B failed twice")})
	require.Contains(t, h.lastLine(), "0%")
	h.key("G")
	require.Contains(t, h.lastLine(), "100%")
	h.send(tea.WindowSizeMsg{Width: 80, Height: 70})
	lines := strings.Split(h.screen(), "\n")
	require.Contains(t, lines[2], "╔", "the whole summary shows from its top")
	require.NotContains(t, h.lastLine(), "%")
}

func squashSpaces(s string) string { return strings.Join(strings.Fields(s), " ") }

// After `r`, the header's elapsed time counts from the run's first start,
// like the summary's wall time, not from the resume.
func TestElapsedAgreesWithTheSummaryAfterResume(t *testing.T) {
	t.Parallel()
	resumed := []event.Event{{Kind: event.RunStarted, Time: t0.Add(600 * time.Second)}}
	resumed = append(resumed, started("2b", 601, 1))
	resumed = append(resumed, completed("2b", 620, 19, "e5f6a7b8c9d0", "feat(ui): add the profile card")...)
	resumed = append(resumed, started("3", 621, 1))
	resumed = append(resumed, completed("3", 650, 29, "f6a7b8c9d0e1", "feat(app): integrate")...)
	resumed = append(resumed, event.Event{Kind: event.RunComplete, Time: t0.Add(651 * time.Second)})
	fake := &fakeController{runs: []chan event.Event{runChan(append(midRun(), haltEnd()...), true), runChan(resumed, true)},
		snapErr: errors.New("no state yet")}
	h := newHarness(t, liveOptions(fake), 100, 30)
	h.init()
	h.until("the halt", func(m *Model) bool { return m.screen == screenSummary })
	h.key("r")
	h.until("the end of the resumed run", func(m *Model) bool { return m.run.status == state.RunComplete && !m.life.active() })
	require.Contains(t, h.screen(), "51s", "before the state is read, the resumed part's time")

	snap := snapshotOf(h.m, state.RunComplete, "")
	finished := t0.Add(651 * time.Second)
	snap.Run.Started, snap.Run.Finished = t0, &finished
	h.send(snapshotMsg{gen: h.m.life.gen, snap: snap})
	lines := strings.Split(h.screen(), "\n")
	require.Contains(t, lines[0], "10m51s")
	require.Contains(t, h.screen(), "wall time 10m51s")
}

// A notice about the run is dropped when the run changes state: a resume
// hint must not stay under the completion screen.
func TestNoticeGoesWhenTheRunChanges(t *testing.T) {
	t.Parallel()
	ch := make(chan watch.Update, 2)
	h := newHarness(t, Options{Watch: ch, ReadOnly: true, Dir: "repo", Commands: watchCommands("")}, 100, 30)
	h.init()
	live := newHarness(t, liveOptions(&fakeController{}), 100, 30)
	live.feed(midRun())
	live.finish(haltEnd())
	ch <- watch.Update{Snapshot: snapshotOf(live.m, state.RunHalted, "Phase 2B failed twice")}
	h.until("the halt", func(m *Model) bool { return m.screen == screenSummary })
	h.key("r")
	require.Contains(t, h.screen(), "To resume, run:")
	snap := snapshotOf(live.m, state.RunComplete, "")
	ch <- watch.Update{Snapshot: snap}
	h.until("the completion", func(m *Model) bool { return m.run.status == state.RunComplete })
	require.NotContains(t, h.screen(), "To resume, run:")

	// Live: "still going" goes with the end of the run.
	fake := &fakeController{runs: []chan event.Event{runChan(midRun(), false)}}
	l := newHarness(t, liveOptions(fake), 100, 30)
	l.init()
	l.until("running", func(m *Model) bool { return m.run.status == state.RunRunning })
	l.key("r")
	require.Contains(t, l.screen(), "The run is still going")
	l.feed(haltEnd())
	require.NotContains(t, l.screen(), "The run is still going")
}

// A phase without a commit says why, as the summary does: it changed
// nothing, or (message-only mode) its message waits for the user.
func TestCommitlessPhasesSayWhy(t *testing.T) {
	t.Parallel()
	h := newHarness(t, liveOptions(&fakeController{}), 100, 30)
	h.feed(midRun())
	nothing := completed("2a", 200, 98, "", "feat(api): add the todo endpoints")
	messageOnly := completed("2c", 205, 103, "", "docs: document the API")
	messageOnly[1].Commit.FilesModified = []string{"README.md"}
	h.feed(append(nothing, messageOnly...))
	require.Equal(t, "no changes to commit", rowDetail(h.m.phases.byID["2a"], &h.m.phases, h.m.now()))
	require.Equal(t, "docs: document the API", rowDetail(h.m.phases.byID["2c"], &h.m.phases, h.m.now()))
	require.Contains(t, trailer(h.m.phases.byID["2a"]), "No changes to commit.")
	require.Contains(t, trailer(h.m.phases.byID["2c"]), "not committed yet: docs: document the API")
	require.Contains(t, trailer(h.m.phases.byID["2c"]), "0 created, 1 modified, 0 deleted")
}

// `r` re-runs the phases that did not complete: their rows forget the
// agent and attempt of the run before.
func TestResumeResetsTheRowsItReruns(t *testing.T) {
	t.Parallel()
	h := newHarness(t, liveOptions(&fakeController{}), 100, 30)
	h.feed(midRun())
	h.finish(haltEnd())
	h.key("r")
	h.until("the resumed run", func(m *Model) bool { return !m.life.awaitingStart() })
	r := h.m.phases.byID["2b"]
	require.Equal(t, stPending, r.status)
	require.Empty(t, r.agent)
	require.Empty(t, attemptText(r.attempt, r.maxAttempts))
	require.Equal(t, "sim", h.m.phases.byID["2a"].agent, "a completed phase keeps its row")
}

// A resume the engine refuses (the fix is not committed yet) keeps the
// summary and the failure on screen, says why, and r can be pressed again.
func TestRefusedResumeKeepsTheHaltScreen(t *testing.T) {
	t.Parallel()
	fake := &fakeController{runs: []chan event.Event{runChan(append(midRun(), haltEnd()...), true)}, snapErr: errors.New("no state")}
	h := newHarness(t, liveOptions(fake), 100, 30)
	h.init()
	h.until("the halt screen", func(m *Model) bool { return m.screen == screenSummary })
	fake.mu.Lock()
	fake.startErr = errors.New("the working tree has uncommitted changes: commit or stash them first")
	fake.mu.Unlock()
	h.key("r")
	h.until("the refusal", func(m *Model) bool { return m.life.err != nil })
	out := h.screen()
	require.Equal(t, screenSummary, h.m.screen)
	require.Contains(t, out, "AUTOBUILD HALTED")
	require.Contains(t, out, "could not start the run: the working tree has uncommitted changes")
	require.True(t, strings.HasPrefix(strings.Split(out, "\n")[1], "halted"), "the header still says halted")
	require.Equal(t, stFailed, h.m.phases.byID["2b"].status)
	require.NotNil(t, h.m.phases.byID["2b"].failure)
	require.Contains(t, h.lastLine(), "r resume")
	h.key("l")
	require.Contains(t, h.screen(), "failure report")

	fake.mu.Lock()
	fake.startErr = nil
	fake.mu.Unlock()
	h.key("r")
	h.until("the resumed run", func(m *Model) bool { return m.screen == screenRun && !m.life.awaitingStart() })
	starts, _ := fake.counts()
	require.Equal(t, []runctl.Mode{runctl.New, runctl.Resume, runctl.Resume}, starts)
}

// Quitting while `r` is starting the new run sends the interrupt at once:
// the controller gives it to the run being started (not to the one before
// it, which has ended), and the model quits when that run has ended.
func TestQuitWhileResumingInterruptsTheNewRun(t *testing.T) {
	t.Parallel()
	second := runChan(midRun(), false)
	fake := &fakeController{runs: []chan event.Event{runChan(append(midRun(), haltEnd()...), true), second},
		snapErr: errors.New("no state")}
	gate := make(chan struct{})
	ctl := &gatedController{fakeController: fake, gate: gate}
	o := liveOptions(nil)
	o.Controller = ctl
	h := newHarness(t, o, 100, 30)
	fake.t, fake.updateGo = t, goroutineID()
	h.init()
	h.until("the halt screen", func(m *Model) bool { return m.screen == screenSummary })
	h.key("r")
	require.True(t, h.m.life.awaitingStart())
	h.key("q")
	require.Contains(t, h.screen(), "Halt the run and quit? y/n")
	h.key("y")
	h.until("the interrupt", func(*Model) bool { _, n := fake.counts(); return n == 1 })
	require.True(t, h.m.life.awaitingStart(), "sent while the new run is still starting")
	require.Contains(t, h.screen(), "Halting")
	close(gate)
	h.until("the new run", func(m *Model) bool { return !m.life.awaitingStart() })
	h.drain()
	_, n := fake.counts()
	require.Equal(t, 1, n, "sent once, not again when the run has started")
	require.True(t, h.m.life.halting())
	close(second)
	h.until("quit", func(*Model) bool { return h.quit })
}

// gatedController holds every Start after the first until gate is closed,
// like an engine slow to accept a resumed run.
type gatedController struct {
	*fakeController
	gate chan struct{}
}

func (g *gatedController) Start(ctx context.Context, mode runctl.Mode) (<-chan event.Event, error) {
	if starts, _ := g.counts(); len(starts) > 0 {
		<-g.gate
	}
	return g.fakeController.Start(ctx, mode)
}

// A start that does not end by itself (a git command waiting on a lock
// while `r` starts the run) is stopped by ctrl+c, or by q and y: the UI
// never waits for the engine to accept the run before it can quit.
func TestQuitStopsAStartThatHangs(t *testing.T) {
	t.Parallel()
	for _, keys := range [][]string{{"ctrl+c"}, {"q", "y"}} {
		t.Run(strings.Join(keys, ","), func(t *testing.T) {
			t.Parallel()
			fake := &fakeController{runs: []chan event.Event{runChan(append(midRun(), haltEnd()...), true)},
				snapErr: errors.New("no state")}
			ctl := &stuckController{fakeController: fake, stop: make(chan struct{})}
			t.Cleanup(func() { ctl.once.Do(func() { close(ctl.stop) }) })
			o := liveOptions(nil)
			o.Controller = ctl
			h := newHarness(t, o, 100, 30)
			fake.t, fake.updateGo = t, goroutineID()
			h.init()
			h.until("the halt screen", func(m *Model) bool { return m.screen == screenSummary })
			h.key("r")
			require.Eventually(t, func() bool { s, _ := fake.counts(); return len(s) == 2 }, 5*time.Second, time.Millisecond,
				"the start under way")
			for _, k := range keys {
				h.key(k)
			}
			require.Contains(t, h.screen(), "Halting")
			h.until("quit", func(*Model) bool { return h.quit })
			require.ErrorContains(t, h.m.Result().StartErr, "interrupted before any phase started")
			_, n := fake.counts()
			require.Equal(t, 1, n)
		})
	}
}

// stuckController's Starts after the first never end by themselves: only
// an interrupt stops them, as the engine's own controller stops a start.
type stuckController struct {
	*fakeController
	once sync.Once
	stop chan struct{}
}

func (s *stuckController) Start(ctx context.Context, mode runctl.Mode) (<-chan event.Event, error) {
	if starts, _ := s.counts(); len(starts) == 0 {
		return s.fakeController.Start(ctx, mode)
	}
	s.check("Start")
	s.mu.Lock()
	s.starts = append(s.starts, mode)
	s.mu.Unlock()
	<-s.stop
	return nil, errors.New("interrupted before any phase started")
}

func (s *stuckController) Interrupt() {
	s.fakeController.Interrupt()
	s.once.Do(func() { close(s.stop) })
}
