package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDemoHaltHintsWorkAsPrinted follows the halted demo's instructions
// literally, as a new user pastes them, from a directory that is not the
// demo's: the fix line, then the resume line. An instruction that depends on
// the current directory, or names a program that is not there, fails here;
// so does one that keeps --dir relative.
func TestDemoHaltHintsWorkAsPrinted(t *testing.T) {
	t.Parallel()
	cwd := t.TempDir()
	dir := filepath.Join(cwd, "try")
	r := autobuild(t, cwd, "demo", "--no-tui", "--halt", "--dir", "try")
	require.Equal(t, 1, r.code, r.String())

	fix := hintLine(t, r.stdout, "To fix the halted phase by hand: ")
	resume := hintLine(t, r.stdout, "then resume: ")
	// The binary under test is not on PATH, so the commands must name it by
	// its path, and the summary box must offer the same command.
	require.Contains(t, resume, binary)
	require.Contains(t, strings.Join(strings.Fields(strings.ReplaceAll(r.stdout, "║", " ")), " "),
		strings.Join(strings.Fields(resume), " "))

	elsewhere := t.TempDir()
	out := shell(t, elsewhere, fix)
	require.Equal(t, 0, out.code, out.String())
	out = shell(t, elsewhere, resume+" --no-tui")
	require.Equal(t, 0, out.code, out.String())
	require.Contains(t, out.stdout, "AUTOBUILD COMPLETE")
	repo := filepath.Join(dir, "calc")
	require.Equal(t, map[string]int{"0": 1, "1": 1, "2a": 1, "2b": 1, "2c": 1, "3": 1}, phaseCommits(t, repo))
	require.Contains(t, git(t, repo, "log", "--format=%s"), "fix: write Format")
}

func hintLine(t *testing.T, stdout, prefix string) string {
	t.Helper()
	for _, l := range strings.Split(stdout, "\n") {
		if rest, ok := strings.CutPrefix(l, prefix); ok {
			return rest
		}
	}
	t.Fatalf("no line starting %q in:\n%s", prefix, stdout)
	return ""
}

// shell runs line with sh in dir, with the test environment of command.
func shell(t *testing.T, dir, line string) result {
	t.Helper()
	cmd := command(dir)
	cmd.Path, cmd.Args = "/bin/sh", []string{"sh", "-c", line}
	return runCmd(t, cmd)
}
