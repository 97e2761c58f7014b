package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"
)

// A dialog is its prompt and its action: any value of the type asks on the
// footer's last line, takes every key, and runs its action on y alone.
func TestADialogCarriesItsPromptAndAction(t *testing.T) {
	t.Parallel()
	h := liveRun(t)
	yes := 0
	h.m.dialog = &dialog{prompt: "Do the thing? y/n", yes: func() tea.Cmd { yes++; return nil }}
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	require.True(t, strings.HasSuffix(h.screen(), "Do the thing? y/n"))
	sel := h.m.table.sel
	for _, k := range []string{"x", "q", "r", "enter", "down"} {
		h.key(k)
	}
	require.NotNil(t, h.m.dialog, "other keys leave the question open")
	require.Zero(t, yes)
	require.Equal(t, focusList, h.m.focus, "and do nothing underneath")
	require.Equal(t, sel, h.m.table.sel)
	h.key("y")
	require.Equal(t, 1, yes)
	require.Nil(t, h.m.dialog)

	h.m.dialog = &dialog{prompt: "Again? y/n", yes: func() tea.Cmd { yes++; return nil }}
	h.key("esc")
	require.Nil(t, h.m.dialog, "esc answers no")
	require.Equal(t, 1, yes)
}
