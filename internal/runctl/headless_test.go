package runctl

import (
	"context"
	"io"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent"
	"github.com/autobuild-sh/autobuild/internal/engine"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/gittest"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/state"
)

const twoPhases = "# Two\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n| 2 | 1 |\n\n" +
	"## Phase 1: First\n\n- [ ] write a\n\n## Phase 2: Second\n\n- [ ] write b\n\n## Quality Gates\n\n- test: `true`\n"

// gitRepo is a repository whose one commit holds plan.md.
func gitRepo(t *testing.T, planText string) string {
	t.Helper()
	return gittest.New(t, gittest.File("plan.md", planText))
}

// Headless runs a real run to its end: the printer sees every event in
// order from the run's start to its end, output lines as it asked, and the
// work beside the run (the heartbeat) ends with it.
//
// Not parallel: Headless listens for the signals that the signal test
// sends to the whole process.
func TestHeadlessPrintsTheWholeRun(t *testing.T) {
	repo := gitRepo(t, twoPhases)
	pl, err := plan.Parse(filepath.Join(repo, "plan.md"), []byte(twoPhases))
	require.NoError(t, err)
	cfg := engine.Config{Dir: repo, Plan: pl, CommitMode: state.CommitAuto, Grace: time.Second,
		Agents: []agent.Agent{{Name: "script", Shell: `echo "working on $AUTOBUILD_PHASE_ID"; echo x > "f$AUTOBUILD_PHASE_ID"`}}}

	var kinds []event.Kind
	var lines []string
	var besideEnded atomic.Bool
	var heard []event.Kind
	p := Printer{
		Listeners: []Listener{func(events <-chan event.Event) {
			for e := range events {
				heard = append(heard, e.Kind)
			}
		}},
		Print: func(e event.Event) {
			kinds = append(kinds, e.Kind)
			if e.Kind == event.PhaseOutput {
				lines = append(lines, e.Line)
			}
		},
		Interest: event.OutputAll, QueueLines: 64,
		Beside: func(ctx context.Context) {
			<-ctx.Done()
			besideEnded.Store(true)
		},
	}
	res, err := Headless(context.Background(), cfg, p, io.Discard)
	require.NoError(t, err)
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	require.True(t, besideEnded.Load(), "the heartbeat ends with the run")
	require.Equal(t, event.RunStarted, kinds[0])
	require.Equal(t, event.RunComplete, kinds[len(kinds)-1], "the run's last event is printed before Headless returns")
	require.Contains(t, lines, "working on 1")
	require.Contains(t, lines, "working on 2")
	require.Equal(t, event.RunComplete, heard[len(heard)-1], "a listener hears the whole run before Headless returns")
	require.NotContains(t, heard, event.PhaseOutput, "and no output line")

	// A printer that shows no output gets no output line.
	lines, kinds = nil, nil
	p.Interest = event.OutputNone
	cfg.Fresh = true
	res, err = Headless(context.Background(), cfg, p, io.Discard)
	require.NoError(t, err)
	require.Equal(t, state.RunComplete, res.Status, res.Reason)
	require.Empty(t, lines)
	require.Contains(t, kinds, event.PhaseCompleted)
}
