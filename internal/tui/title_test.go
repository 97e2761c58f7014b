package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/stretchr/testify/require"
)

// The window title is the plan's: an OSC 52 (clipboard) or OSC 0 in it
// must not reach the terminal, which would run it.
func TestWindowTitleIsSanitized(t *testing.T) {
	t.Parallel()
	m := New(Options{Title: "Plan\x1b]52;c;ZWNobyBwd25lZA==\x07 \x1b]0;x\x07\x00one", Controller: &fakeController{}})
	m.noTick = true
	require.Equal(t, "autobuild · Plan one", m.View().WindowTitle)
}

// A phase name, the plan's title and an agent's name are the plan's and the
// user's: an OSC 52 or a screen clear in them never reaches the terminal
// through the frame.
func TestFrameCarriesNoEscapesFromThePlan(t *testing.T) {
	t.Parallel()
	evil := "x\x1b]52;c;ZWNobyBwd25lZA==\x07\x1b[2J\x00y"
	m := New(Options{Title: "T" + evil, Agent: "a" + evil, Controller: &fakeController{},
		Batches: [][]PhaseInfo{{{ID: "1", DisplayID: "1", Name: "Name" + evil, Batch: 1}}}})
	m.noTick = true
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	out := m.View().Content
	require.Contains(t, out, "Name")
	for _, bad := range []string{"\x1b]", "\x1b[2J", "\x00", "\a"} {
		require.NotContains(t, out, bad)
	}
}
