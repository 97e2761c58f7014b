package watch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/state"
)

func TestTailer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tl := newTailer(dir)
	path := filepath.Join(dir, "phase-1.attempt-1.log")
	write := func(s string) { require.NoError(t, os.WriteFile(path, []byte(s), 0o644)) }

	require.Empty(t, newTailer(filepath.Join(dir, "missing")).poll(), "no logs directory yet")

	write("a\nb\n")
	require.Equal(t, map[state.FileID][]string{"1": {"a", "b"}}, tl.poll())
	require.Empty(t, tl.poll(), "nothing new")

	// Unrelated files are ignored.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "execution.log"), []byte("x\n"), 0o644))
	require.Empty(t, tl.poll())

	// Truncated: start over.
	write("c\n")
	require.Equal(t, map[state.FileID][]string{"1": {"c"}}, tl.poll())

	// Vanished: forgotten, and read from the start when it comes back.
	require.NoError(t, os.Remove(path))
	require.Empty(t, tl.poll())
	write("d\n")
	require.Equal(t, map[state.FileID][]string{"1": {"d"}}, tl.poll())

	// A flood: only the tail is read, from a line boundary.
	var b strings.Builder
	for b.Len() < 3*maxReadPerPoll {
		b.WriteString("0123456789 flood line\n")
	}
	b.WriteString("last\n")
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o644)
	require.NoError(t, err)
	_, err = f.WriteString(b.String())
	require.NoError(t, err)
	require.NoError(t, f.Close())
	lines := tl.poll()["1"]
	require.Less(t, len(lines), maxReadPerPoll/10)
	require.Equal(t, "last", lines[len(lines)-1])
	require.Equal(t, "0123456789 flood line", lines[0], "the cut line is dropped")

	// Attempts of one phase come in order.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "phase-2a.attempt-2.log"), []byte("second\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "phase-2a.attempt-1.log"), []byte("first\n"), 0o644))
	require.Equal(t, []string{"first", "second"}, tl.poll()["2a"])
}

func TestTailerLongPartialLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tl := newTailer(dir)
	long := strings.Repeat("x", maxPartial+10)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "phase-1.attempt-1.log"), []byte(long), 0o644))
	lines := tl.poll()["1"]
	require.Len(t, lines, 1, "a line without end is shown once it is too long to hold")
}
