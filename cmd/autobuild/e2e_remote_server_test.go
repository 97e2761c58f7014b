package main

import (
	"testing"

	"github.com/autobuild-sh/autobuild/internal/temporaltest"
)

// temporalDevServer starts a Temporal dev server for the test
// (tools/temporal-dev, package temporaltest) and returns its address; the
// test is skipped, with one line saying why, when it cannot be built.
func temporalDevServer(t *testing.T) string {
	t.Helper()
	return temporaltest.Start(t)
}
