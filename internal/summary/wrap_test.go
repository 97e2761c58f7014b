package summary

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"
)

func TestCleanLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"FAIL\texample.com/calc [build failed]", "FAIL    example.com/calc [build failed]"},
		{"ab\tc", "ab      c"},
		{"\x1b[31mred\x1b[0m text", "red text"},
		{"10%\r50%\r100% done", "100% done"},
		{"line\r", "line"},
		{"bell\a and nul\x00", "bell and nul"},
		{"日本\tx", "日本    x"},
	} {
		require.Equal(t, tc.want, cleanLine(tc.in), "%q", tc.in)
	}
}

func TestWrapWordsBreaksOnlyAtSpaces(t *testing.T) {
	got := wrapWords("1. run the tests in the phase's worktree to see the failures: go test ./...", 60, 3)
	require.Equal(t, []string{"1. run the tests in the phase's worktree to see the", "failures: go test ./..."}, got)

	cmd := "3. Run: cd /tmp/autobuild-demo-1915425454/calc && autobuild plan.md --agent sim --scenario /tmp/autobuild-demo-1915425454/scenario.json --resume"
	lines := wrapWords(cmd, 76, 3)
	for i, l := range lines {
		require.LessOrEqual(t, ansi.StringWidth(l), 76-3*min(i, 1), "line %d too wide: %q", i, l)
	}
	// Joined back with single spaces, the command is whole again: no token was cut.
	require.Equal(t, cmd, strings.Join(lines, " "))
}

func TestWrapWordsKeepsInnerSpacingAndLeadingIndent(t *testing.T) {
	require.Equal(t, []string{"    a    b"}, wrapWords("    a    b", 40, 0))
	require.Equal(t, []string{"--- FAIL: x", "y"}, wrapWords("--- FAIL: x     y", 12, 0))
}

func TestWrapWordsBreaksAnOverlongWordAfterASlash(t *testing.T) {
	got := wrapWords("Log: /very/long/path/to/the/state/directory/logs/phase-2b.attempt-2.log", 30, 2)
	require.Equal(t, "Log:", got[0])
	for i, l := range got {
		require.LessOrEqual(t, ansi.StringWidth(l), 30-2*min(i, 1), "%q", l)
	}
	require.True(t, strings.HasSuffix(got[1], "/"), "a path breaks after a slash: %q", got)
	require.Equal(t, "/very/long/path/to/the/state/directory/logs/phase-2b.attempt-2.log", strings.Join(got[1:], ""))
}

func TestWrapWordsAlwaysAdvances(t *testing.T) {
	require.Equal(t, []string{"ab", "cd", "e"}, wrapWords("abcde", 2, 0))
	require.Equal(t, []string{"日", "本"}, wrapWords("日本", 1, 0), "a wide rune wider than the line still goes out")
	require.Equal(t, []string{""}, wrapWords("", 10, 2))
}
