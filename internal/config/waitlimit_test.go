package config

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestWaitLimit(t *testing.T) {
	t.Parallel()
	cfg, err := Parse("wait_limit = \"8h\"\n", "autobuild.toml")
	require.NoError(t, err)
	require.Equal(t, &Duration{8 * time.Hour}, cfg.WaitLimit)

	cfg, err = Parse("wait_limit = \"0\"\n", "autobuild.toml")
	require.NoError(t, err)
	require.Equal(t, &Duration{}, cfg.WaitLimit, "0 is set: never wait")

	cfg, err = Parse("agent = \"sim\"\n", "autobuild.toml")
	require.NoError(t, err)
	require.Nil(t, cfg.WaitLimit, "not set: the default applies")

	_, err = Parse("wait_limit = \"forever\"\n", "autobuild.toml")
	require.ErrorContains(t, err, `autobuild.toml:1: wait_limit: "forever" is not a duration of 0 or more`)
}
