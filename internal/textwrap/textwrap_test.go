package textwrap

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"
)

func TestCleanLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"FAIL\texample.com/calc [build failed]", "FAIL    example.com/calc [build failed]"},
		{"ab\tc", "ab      c"},
		{"\x1b[31mred\x1b[0m text", "red text"},
		{"10%\r50%\r100% done", "100% done"},
		{"line\r", "line"},
		{"bell\a and nul\x00", "bell and nul"},
		{"日本\tx", "日本    x"},
	} {
		require.Equal(t, tc.want, CleanLine(tc.in), "%q", tc.in)
	}
}

func TestWordsBreaksOnlyAtSpaces(t *testing.T) {
	t.Parallel()
	got := Words("1. run the tests in the phase's worktree to see the failures: go test ./...", 60, 3)
	require.Equal(t, []string{"1. run the tests in the phase's worktree to see the", "failures: go test ./..."}, got)

	cmd := "3. Run: cd /tmp/autobuild-demo-1915425454/calc && autobuild plan.md --agent sim --scenario /tmp/autobuild-demo-1915425454/scenario.json --resume"
	lines := Words(cmd, 76, 3)
	for i, l := range lines {
		require.LessOrEqual(t, ansi.StringWidth(l), 76-3*min(i, 1), "line %d too wide: %q", i, l)
	}
	// Joined back with single spaces, the command is whole again: no token was cut.
	require.Equal(t, cmd, strings.Join(lines, " "))
}

func TestWordsNeverBreaksAtAHyphen(t *testing.T) {
	t.Parallel()
	require.Equal(t, []string{"run: autobuild", "plan.md --resume"}, Words("run: autobuild plan.md --resume", 16, 0))
	require.Equal(t, []string{"x", "abcd", "efgh", "ij y"}, Words("x abcdefghij y", 4, 0), "only a word wider than the line is cut")
	require.Equal(t, []string{"--no-", "tui"}, Words("--no-tui", 5, 0), "cut at the width, not at the hyphen before it")
}

func TestWordsKeepsInnerSpacingAndLeadingIndent(t *testing.T) {
	t.Parallel()
	require.Equal(t, []string{"    a    b"}, Words("    a    b", 40, 0))
	require.Equal(t, []string{"--- FAIL: x", "y"}, Words("--- FAIL: x     y", 12, 0))
}

func TestWordsBreaksAnOverlongWordAfterASlash(t *testing.T) {
	t.Parallel()
	got := Words("Log: /very/long/path/to/the/state/directory/logs/phase-2b.attempt-2.log", 30, 2)
	require.Equal(t, "Log:", got[0])
	for i, l := range got {
		require.LessOrEqual(t, ansi.StringWidth(l), 30-2*min(i, 1), "%q", l)
	}
	require.True(t, strings.HasSuffix(got[1], "/"), "a path breaks after a slash: %q", got)
	require.Equal(t, "/very/long/path/to/the/state/directory/logs/phase-2b.attempt-2.log", strings.Join(got[1:], ""))
}

// Every line takes at least one character: a double-width rune in a
// one-column line, or no room at all, still ends.
func TestWordsAlwaysAdvances(t *testing.T) {
	t.Parallel()
	done := make(chan [][]string, 1)
	go func() {
		done <- [][]string{
			Words("abcde", 2, 0),
			Words("日本", 1, 0),
			Words("", 10, 2),
			Words("a 日本 b", 1, 0),
			Words("ab", 0, 0),
			Words("abc def", 3, 5),
		}
	}()
	select {
	case got := <-done:
		require.Equal(t, []string{"ab", "cd", "e"}, got[0])
		require.Equal(t, []string{"日", "本"}, got[1], "a wide rune wider than the line still goes out")
		require.Equal(t, []string{""}, got[2])
		require.Equal(t, []string{"a", "日", "本", "b"}, got[3])
		require.Equal(t, []string{"a", "b"}, got[4], "no room: one character a line")
		require.Equal(t, []string{"abc", "d", "e", "f"}, got[5], "an indent wider than the line leaves one column")
	case <-time.After(5 * time.Second):
		t.Fatal("Words did not end")
	}
}

func TestCutWord(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		word string
		n    int
		want string
	}{
		{"abcdef", 3, "abc"},
		{"a/bcdef", 4, "a/"},
		{"/abcdef", 4, "/abc"},
		{"ab/", 3, "ab/"},
		{"日本", 1, "日"},
		{"日本", 0, "日"},
		{"abc", -2, "a"},
	} {
		require.Equal(t, tc.want, cutWord(tc.word, tc.n), "%q in %d", tc.word, tc.n)
	}
}
