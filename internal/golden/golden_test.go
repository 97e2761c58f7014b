package golden

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestEqual(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "screen.golden")
	require.NoError(t, os.WriteFile(path, []byte("a\nb\n"), 0o644))
	Equal(t, path, "a\nb\n")

	mt := &mockT{TB: t}
	func() {
		defer func() { _ = recover() }()
		Equal(mt, path, "a\nc\n")
	}()
	require.True(t, mt.failed, "a difference fails the test")
}

// mockT records a failure instead of failing the real test.
type mockT struct {
	testing.TB
	failed bool
}

func (m *mockT) Errorf(string, ...any) { m.failed = true }
func (m *mockT) FailNow()              { m.failed = true; panic("fail now") }
func (m *mockT) Helper()               {}
