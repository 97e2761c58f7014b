package tui

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/stretchr/testify/require"

	tea "charm.land/bubbletea/v2"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/runctl"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// The model in a real Bubble Tea program: the run halts, `r` resumes it in
// place, it completes, `q` quits.
func TestProgramHaltResumeComplete(t *testing.T) {
	t.Parallel()
	resumed := append(midRun(), completeEnd()...)
	fake := &fakeController{t: t, runs: []chan event.Event{
		runChan(append(midRun(), haltEnd()...), true),
		runChan(resumed, true),
	}, snapErr: errors.New("no state files in this test")}
	o := liveOptions(fake)
	o.Now = func() time.Time { return t0.Add(4 * time.Minute) }
	tm := teatest.NewTestModel(t, New(o), teatest.WithInitialTermSize(80, 24),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))

	waitScreen := func(want string) {
		t.Helper()
		var seen []byte
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
			seen = append(seen, b...)
			return bytes.Contains([]byte(ansi.Strip(string(seen))), []byte(want))
		}, teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	}
	waitScreen("AUTOBUILD HALTED")
	tm.Send(keyPress("r"))
	waitScreen("AUTOBUILD COMPLETE")
	tm.Send(keyPress("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	final, ok := tm.FinalModel(t).(*Model)
	require.True(t, ok)
	require.Equal(t, state.RunComplete, final.Result().Status)
	starts, _ := fake.counts()
	require.Equal(t, []runctl.Mode{runctl.New, runctl.Resume}, starts)
}
