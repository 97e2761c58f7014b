package config

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/notify"
)

func TestLoadBudgetAndNotify(t *testing.T) {
	t.Setenv("AB_TEST_HOOK", "https://hooks.example.com/services/T0/B0/secret")
	root := write(t, `max_cost = 20
max_phase_cost = 2.5
max_cost_hard = true

[notify]
terminal = false
desktop = true
webhook = "$AB_TEST_HOOK"
command = "ntfy publish builds"
events = ["halted", "attempt_failed"]
limit_wait = "45m"
`)
	cfg, err := Load(root)
	require.NoError(t, err)
	require.Equal(t, 20.0, *cfg.Budget.MaxCost, "a whole number is dollars too")
	require.Equal(t, 2.5, *cfg.Budget.MaxPhaseCost)
	require.True(t, *cfg.Budget.Hard)
	n := cfg.Notify
	require.False(t, *n.Terminal)
	require.True(t, n.Desktop)
	require.Equal(t, "https://hooks.example.com/services/T0/B0/secret", n.Webhook, "read from the environment")
	require.Equal(t, "ntfy publish builds", n.Command)
	require.Equal(t, []notify.Kind{notify.Halted, notify.AttemptFailed}, n.Events)
	require.Equal(t, 45*time.Minute, n.LimitWait.Duration)
}

func TestNotifyMistakesAreNamed(t *testing.T) {
	for text, want := range map[string]string{
		"max_cost = -1\n":                            "max_cost: must be a number of US dollars",
		"max_cost = \"ten\"\n":                       "max_cost: must be a number of US dollars, such as 20",
		"[notify]\nevents = [\"halt\"]\n":            `notify.events: "halt" is not a notification`,
		"[notify]\nwebhook = \"$AB_NOT_SET_EVER\"\n": "the environment variable AB_NOT_SET_EVER is not set",
		"[notify]\nwebhok = \"x\"\n":                 "known keys: terminal, desktop, webhook",
	} {
		_, err := Load(write(t, text))
		require.ErrorContains(t, err, want, text)
	}
	_, err := Load(write(t, "[notify]\nwebhook = \"hooks.example.com/secret-token\"\n"))
	require.ErrorContains(t, err, "must be an http:// or https:// URL")
	require.NotContains(t, err.Error(), "secret-token", "a webhook value is never echoed")
}
