package config

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestVerifyIsLandingOrOff(t *testing.T) {
	t.Parallel()
	cfg, err := Load(write(t, `verify = "off"`))
	require.NoError(t, err)
	require.Equal(t, "off", cfg.Verify)
	_, err = Load(write(t, `verify = "sometimes"`))
	require.ErrorContains(t, err, `verify: must be landing or off, not "sometimes"`)
}
