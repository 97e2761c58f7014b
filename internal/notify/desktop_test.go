package notify

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// The desktop channel runs notify-send (a stand-in script here) with the
// title and the text; without the program there is no channel.
func TestDesktopRunsNotifySend(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "darwin" {
		t.Skip("osascript on macOS")
	}
	dir := t.TempDir()
	args := filepath.Join(dir, "args")
	prog := filepath.Join(dir, "notify-send")
	require.NoError(t, os.WriteFile(prog, []byte("#!/bin/sh\nprintf '%s\\n' \"$@\" > "+args+"\n"), 0o755))
	d, ok := FindDesktop(func(name string) (string, error) {
		require.Equal(t, "notify-send", name)
		return prog, nil
	})
	require.True(t, ok)
	require.Equal(t, "desktop (notify-send)", d.Name())
	require.NoError(t, d.Send(context.Background(), Document{Notification: Halted, Text: "autobuild halted: phase 2 failed"}))
	got, err := os.ReadFile(args)
	require.NoError(t, err)
	require.Equal(t, "--app-name=autobuild\n--urgency=critical\n--\nautobuild: halted\nautobuild halted: phase 2 failed\n", string(got))

	_, ok = FindDesktop(func(string) (string, error) { return "", errors.New("not found") })
	require.False(t, ok)
}
