package tui

import (
	"testing"

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
