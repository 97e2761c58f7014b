// Package golden compares rendered output (the TUI's screens, the printers'
// lines, the summary box, the report) with files under a package's
// testdata/, and rewrites them when the tests run with -update. It is for
// tests only.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	// x/exp/golden (used by teatest) defines the -update flag; importing it
	// here makes sure it is defined once, before anyone reads it, instead of
	// twice (a panic) when a test binary links both.
	_ "github.com/charmbracelet/x/exp/golden"
)

// Updating reports whether the tests run with -update.
func Updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// Equal requires got to equal the file at path (under testdata/, by
// convention); with -update it writes got there first.
func Equal(t testing.TB, path, got string) {
	t.Helper()
	if Updating() {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file %s: run go test -update", path)
	require.Equal(t, string(want), got, "output differs from %s (go test -update rewrites it)", path)
}
