package cli

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestProgramNameFor(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	exe := filepath.Join(dir, "autobuild")
	other := filepath.Join(dir, "other", "autobuild")
	require.NoError(t, os.WriteFile(exe, []byte("x"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Dir(other), 0o755))
	require.NoError(t, os.WriteFile(other, []byte("y"), 0o755))
	found := func(p string) func(string) (string, error) {
		return func(string) (string, error) { return p, nil }
	}
	notFound := func(string) (string, error) { return "", errors.New("not found") }

	require.Equal(t, "autobuild", programNameFor(exe, found(exe)), "the binary on PATH is this one")
	require.Equal(t, exe, programNameFor(exe, notFound), "not on PATH: its absolute path")
	require.Equal(t, exe, programNameFor(exe, found(other)), "another autobuild on PATH is not this one")
	require.Equal(t, "autobuild", programNameFor("/tmp/go-build123/b001/exe/autobuild", notFound), "go run")
	spaced := filepath.Join(dir, "my tools", "autobuild")
	require.Equal(t, spaced, programNameFor(spaced, notFound), "the caller quotes it")
}
