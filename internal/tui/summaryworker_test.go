package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/state"
)

// A run made on Temporal workers: the UI's halt summary names the worker
// of the failed phase's last attempt, and its completion summary the
// workers the phases ran on, as the plain printer's box does (both are
// summary.Render of the state files).
func TestSummaryScreensNameTheWorkers(t *testing.T) {
	t.Parallel()
	fake := &fakeController{}
	h := newHarness(t, liveOptions(fake), 100, 60)
	h.feed(midRun())
	h.finish(haltEnd())
	snap := snapshotOf(h.m, state.RunHalted, "Phase 2B failed twice (test_failure)")
	for _, p := range snap.Phases {
		for i := range p.Attempts {
			p.Attempts[i].Worker = "build-7:4242"
		}
	}
	fake.setSnapshot(snap)
	h.send(snapshotMsg{gen: h.m.life.gen, snap: snap})
	require.Equal(t, screenSummary, h.m.screen)
	require.Contains(t, h.screen(), "Error: test_failure on worker build-7:4242")

	h = newHarness(t, liveOptions(&fakeController{}), 100, 60)
	h.feed(midRun())
	h.finish(completeEnd())
	snap = snapshotOf(h.m, state.RunComplete, "")
	for i, p := range snap.Phases {
		p.Attempts = []state.Attempt{{Number: 1, Outcome: state.OutcomeComplete, Worker: []string{"build-7:4242", "build-9:311"}[min(i, 1)]}}
	}
	h.send(snapshotMsg{gen: h.m.life.gen, snap: snap})
	screen := h.screen()
	require.Contains(t, screen, fmt.Sprintf("Workers: build-9:311 (%d phases), build-7:4242 (1).", len(snap.Phases)-1), strings.TrimSpace(screen))
}
