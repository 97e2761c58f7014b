package cli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLauncherFor(t *testing.T) {
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
	goRun := func() string { return "go run ./cmd/autobuild" }
	outside := func() string { return "" }

	require.Equal(t, launcher{words: "autobuild"}, launcherFor(exe, found(exe), nil, goRun), "the binary on PATH is this one")
	require.Equal(t, launcher{words: exe}, launcherFor(exe, notFound, nil, goRun), "not on PATH: its absolute path")
	require.Equal(t, launcher{words: exe}, launcherFor(exe, found(other), nil, goRun), "another autobuild on PATH is not this one")
	spaced := filepath.Join(dir, "my tools", "autobuild")
	require.Equal(t, launcher{words: "'" + spaced + "'"}, launcherFor(spaced, notFound, nil, goRun), "quoted")

	// `go run` builds: never a path into the build cache.
	for _, built := range []string{
		"/tmp/go-build123/b001/exe/autobuild",                // the work directory
		"/root/.cache/go-build/2c/" + hex64 + "-d/autobuild", // Go 1.24+ caches go run executables
		"/tmp/my-gocache/2c/" + hex64 + "-d/autobuild",       // GOCACHE elsewhere, named otherwise
		filepath.Join(dir, "cache", "anything", "autobuild"), // below a build directory given
	} {
		got := launcherFor(built, notFound, []string{filepath.Join(dir, "cache")}, goRun)
		require.Equal(t, launcher{words: "go run ./cmd/autobuild", goRun: true}, got, built)
		require.NotContains(t, got.in("/elsewhere", "plan.md", "--resume"), "go-build")
	}
	require.Equal(t, launcher{words: "autobuild", goRun: true},
		launcherFor("/tmp/go-build9/b001/exe/autobuild", notFound, nil, outside), "go run from outside the module")
}

const hex64 = "2ce3fbc2685d25e5e824359b9992d1fd0a4c07fdfa65d1647ed2ab96ca9e1cbf"

func TestLauncherIn(t *testing.T) {
	wd, err := os.Getwd()
	require.NoError(t, err)
	bin := launcher{words: "autobuild"}
	require.Equal(t, "autobuild plan.md --resume", bin.in(wd, "plan.md", "--resume"))
	require.Equal(t, "cd /tmp/demo && autobuild plan.md --resume", bin.in("/tmp/demo", "plan.md", "--resume"))
	require.Empty(t, bin.installHint())

	// A go run command stays where its package path leads: -C moves autobuild.
	run := launcher{words: "go run ./cmd/autobuild", goRun: true}
	require.Equal(t, "go run ./cmd/autobuild plan.md --resume", run.in(wd, "plan.md", "--resume"))
	require.Equal(t, "go run ./cmd/autobuild -C /tmp/demo plan.md --resume", run.in("/tmp/demo", "plan.md", "--resume"))
	require.Equal(t, "go run ./cmd/autobuild -C testdata plan.md --resume", run.in(filepath.Join(wd, "testdata"), "plan.md", "--resume"))
	require.Equal(t, "go run ./cmd/autobuild -C "+filepath.Join(wd, "testdata")+" plan.md --resume", run.at(filepath.Join(wd, "testdata"), "plan.md", "--resume"),
		"at: absolute, for a command pasted from anywhere")
	require.Equal(t, "cd "+filepath.Join(wd, "testdata")+" && autobuild plan.md --resume", bin.at(filepath.Join(wd, "testdata"), "plan.md", "--resume"))
	require.Contains(t, run.installHint(), "go build -o autobuild ./cmd/autobuild")
	require.Contains(t, run.installHint(), "go install ./cmd/autobuild")
}

func TestGoRunWordsFor(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/ab\n\ngo 1.26\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "cmd", "autobuild"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "docs"), 0o755))
	pkg := "example.com/ab/cmd/autobuild"
	require.Equal(t, "go run ./cmd/autobuild", goRunWordsFor(root, "example.com/ab", pkg))
	require.Equal(t, "go run ../cmd/autobuild", goRunWordsFor(filepath.Join(root, "docs"), "example.com/ab", pkg))
	require.Empty(t, goRunWordsFor(t.TempDir(), "example.com/ab", pkg), "outside the module")

	// A nested module of its own is not autobuild's.
	nested := filepath.Join(root, "demo")
	require.NoError(t, os.MkdirAll(nested, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(nested, "go.mod"), []byte("module calc\n"), 0o644))
	require.Empty(t, goRunWordsFor(nested, "example.com/ab", pkg))
}

// TestChdirFlag: -C runs autobuild as if started in DIR, so a go run resume
// command can name the run's directory.
func TestChdirFlag(t *testing.T) {
	t.Chdir(t.TempDir()) // restored after the test, whatever -C did
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	var out, errOut bytes.Buffer
	require.Equal(t, 3, Main([]string{"-C", dir, "status"}, Streams{Out: &out, Err: &errOut}))
	require.Contains(t, errOut.String(), "no autobuild run in "+filepath.Join(dir, ".autobuild"))
	wd, err := os.Getwd()
	require.NoError(t, err)
	require.Equal(t, dir, wd)
	errOut.Reset()
	code := Main([]string{"-C", filepath.Join(dir, "missing"), "status"}, Streams{Out: &out, Err: &errOut})
	require.Equal(t, 2, code)
	require.Contains(t, errOut.String(), "-C")
}
