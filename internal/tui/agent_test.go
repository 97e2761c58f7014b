package tui

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/watch"
)

func action(id phaseid.ID, sec float64, tool, line string) event.Event {
	e := ev(event.AgentAction, id, sec)
	e.Tool, e.Line = tool, line
	return e
}

// A preset agent's tool calls show live, one line each, in its row and its
// log; the header adds up the tokens and cost the attempts reported.
func TestAgentActionsAndUsage(t *testing.T) {
	t.Parallel()
	h := newHarness(t, liveOptions(&fakeController{}), 100, 24)
	h.feed(midRun())
	h.feed([]event.Event{action("2a", 181, "Write", "Write calc/format.go"), action("2a", 182, "Bash", "Bash go test ./...\x1b[31m")})
	r := h.m.phases.byDisplay("2A")
	require.Equal(t, "→ Bash go test ./...", r.last, "the row shows the last tool call, cleaned")
	require.Contains(t, h.screen(), "→ Bash go test ./...")

	done := completed("2a", 190, 60, "abc1234", "feat(api): routes")
	done[0].Usage = &state.Usage{InputTokens: 12000, CacheReadTokens: 300, OutputTokens: 4100, CostUSD: 0.42}
	h.feed(done)
	f := failed("2c", 191, 1, "test failed")
	f.Usage = &state.Usage{InputTokens: 1000, OutputTokens: 100, CostUSD: 0.08}
	h.feed([]event.Event{f})
	header := strings.SplitN(h.screen(), "\n", 2)[0]
	require.Contains(t, header, "13.3k in · 4.2k out · $0.50", "the attempts' usage adds up")
}

// watch reads the usage from the phase files: the header shows the run's.
func TestWatchShowsUsageFromTheFiles(t *testing.T) {
	t.Parallel()
	ch := make(chan watch.Update, 1)
	h := newHarness(t, Options{Watch: ch, ReadOnly: true, Dir: "repo"}, 100, 24)
	h.init()
	live := newHarness(t, liveOptions(&fakeController{}), 80, 24)
	live.feed(midRun())
	snap := snapshotOf(live.m, state.RunRunning, "")
	snap.Phases[0].Attempts = []state.Attempt{{Number: 1, Usage: &state.Usage{InputTokens: 2000, OutputTokens: 500, CostUSD: 0.1}}}
	snap.Phases[1].Attempts = []state.Attempt{{Number: 1, Usage: &state.Usage{InputTokens: 1000, OutputTokens: 500, CostUSD: 0.05}}}
	ch <- watch.Update{Snapshot: snap}
	h.until("the run", func(m *Model) bool { return len(m.phases.rows) == 6 })
	require.Contains(t, strings.SplitN(h.screen(), "\n", 2)[0], "3k in · 1k out · $0.15")
}
