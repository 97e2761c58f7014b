package main

import (
	"os"
	"testing"
)

// temporalDevServer is the address of a Temporal dev server for the test:
// $AUTOBUILD_TEST_TEMPORAL when set; otherwise the test is skipped.
func temporalDevServer(t *testing.T) string {
	t.Helper()
	if addr := os.Getenv("AUTOBUILD_TEST_TEMPORAL"); addr != "" {
		return addr
	}
	t.Skip("no Temporal dev server: set AUTOBUILD_TEST_TEMPORAL=HOST:PORT (tools/temporal-dev)")
	return ""
}
