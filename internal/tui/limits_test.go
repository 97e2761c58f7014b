package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
)

// A phase waiting out a usage limit shows a countdown in its row and in the
// header, which follows the clock; the next attempt clears it.
func TestWaitingPhaseShowsACountdown(t *testing.T) {
	t.Parallel()
	h := newHarness(t, liveOptions(&fakeController{}), 120, 24)
	h.feed(midRun())
	now := h.clock.now()
	until := now.Add(time.Hour + 42*time.Minute)
	w := ev(event.PhaseWaiting, "2a", 192)
	w.Attempt, w.MaxAttempts, w.Agent, w.Until = 1, 2, "claude", &until
	w.Line = "usage limit · resumes later with claude; does not use up the retry"
	h.feed([]event.Event{w})
	want := "usage limit · resumes " + until.Local().Format("15:04") + " (in 1h42m)"
	screen := h.screen()
	require.Contains(t, strings.SplitN(screen, "\n", 2)[0], want, "the header")
	require.Contains(t, screen, "2A", "the row")
	require.Equal(t, 2, strings.Count(screen, want), "row and header")

	h.clock.set(now.Add(time.Hour))
	require.Contains(t, h.screen(), "(in 42m00s)", "the countdown follows the clock")

	h.feed([]event.Event{started("2a", 200, 1)})
	require.NotContains(t, h.screen(), "usage limit · resumes")
}

func TestRateLimitWaitText(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 3, 0, 0, 0, time.UTC)
	r := &phaseRow{until: now.Add(32 * time.Second)}
	require.Equal(t, "rate limited · again in 32s", waitText(r, now))
}
