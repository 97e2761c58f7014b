package cli

import (
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/config"
	"github.com/autobuild-sh/autobuild/internal/notify"
)

// --notify adds to [notify]; off clears it; the environment's webhook
// wins over the file's, the flag's over both.
func TestNotifySettings(t *testing.T) {
	t.Setenv(EnvNotifyWebhook, "https://env.example.com/hook")
	no := false
	file := config.Notify{Terminal: &no, Webhook: "https://file.example.com/hook", Command: "cat"}

	n, err := (&runOptions{}).notifySettings(file)
	require.NoError(t, err)
	require.Equal(t, "https://env.example.com/hook", n.webhook)
	require.Empty(t, os.Getenv(EnvNotifyWebhook), "taken out of the environment the agents inherit")
	require.False(t, n.terminal)
	require.Equal(t, 30*time.Minute, n.limitWait)

	n, err = (&runOptions{notify: []string{"webhook=https://flag.example.com/x", "desktop", "attempts", "terminal"}}).notifySettings(file)
	require.NoError(t, err)
	require.Equal(t, "https://flag.example.com/x", n.webhook)
	require.True(t, n.desktop)
	require.True(t, n.terminal)
	require.Equal(t, append(notify.DefaultKinds(), notify.AttemptFailed), n.kinds)

	n, err = (&runOptions{notify: []string{"off", "command=ntfy pub x"}}).notifySettings(file)
	require.NoError(t, err)
	require.Equal(t, notifySettings{script: "ntfy pub x"}, n, "off clears the file's, later values add again")

	for _, bad := range []string{"webhook=hooks.example.com/x", "slack", "command="} {
		_, err = (&runOptions{notify: []string{bad}}).notifySettings(config.Notify{})
		require.Error(t, err, bad)
		require.NotContains(t, err.Error(), "hooks.example.com/x", "a URL is never echoed")
	}
}

// The webhook's URL is left out of every command autobuild prints.
func TestSecretArgs(t *testing.T) {
	t.Parallel()
	args := []string{"plan.md", "--notify", "webhook=https://h/secret", "--notify=webhook=https://h/s2", "--notify", "desktop", "--max-cost", "5"}
	var kept []string
	for i, a := range args {
		if !secretArg(args, i) {
			kept = append(kept, a)
		}
	}
	require.Equal(t, []string{"plan.md", "--notify", "desktop", "--max-cost", "5"}, kept)
}

// --notify completes its values.
func TestNotifyCompletes(t *testing.T) {
	t.Parallel()
	code, out, _ := run(t, "__complete", "plan.md", "--notify", "")
	require.Equal(t, 0, code)
	for _, v := range []string{"webhook=", "command=", "desktop", "attempts", "terminal=off", "off"} {
		require.Contains(t, out, v+"\t")
	}
}
