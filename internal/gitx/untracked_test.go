package gitx

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// Issue 25, attack 6: every path autobuild passes to git is literal, even
// to a command whose caller set nothing: `*.go` is the file of that name,
// not every Go file, and the environment cannot turn glob magic back on.
func TestPathsAreLiteralInEveryCommand(t *testing.T) {
	t.Setenv("GIT_GLOB_PATHSPECS", "1")
	r, root := newRepo(t)
	writeFile(t, root, "a.go", "a\n")
	gitT(t, root, "add", "a.go")
	gitT(t, root, "commit", "-qm", "a")
	got, err := r.Tracked(context.Background(), "*.go")
	require.NoError(t, err)
	require.Empty(t, got, "no file is named *.go")
}

// Issue 25, attack 1: an ignored file where a landing would write (the
// path itself, or a file where one of its directories goes) is named; a
// tracked file and a path that is not there are not.
func TestUntrackedInTheWay(t *testing.T) {
	r, root := newRepo(t)
	writeFile(t, root, ".gitignore", "config.local\nbuild\n")
	writeFile(t, root, "tracked.txt", "t\n")
	gitT(t, root, "add", "-A")
	gitT(t, root, "commit", "-qm", "base")
	writeFile(t, root, "config.local", "key\n")
	require.NoError(t, os.WriteFile(filepath.Join(root, "build"), []byte("a file\n"), 0o644))
	got, err := r.UntrackedInTheWay(context.Background(), []string{"config.local", "tracked.txt", "new.txt", "build/out.bin"})
	require.NoError(t, err)
	require.Equal(t, []string{"build", "config.local"}, got)
}
