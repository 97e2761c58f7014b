// Package clip shortens text for display: commit ids, first lines, the last
// lines of an output. Every view of a run (summary, TUI, printers, reports)
// clips the same way.
package clip

import "strings"

// SHA is a commit id in its 7-character short form.
func SHA(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}

// FirstLine is s up to its first newline.
func FirstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// LastLines returns the last n lines of s (trailing newlines ignored).
func LastLines(s string, n int) []string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}

// Tail is LastLines joined back into one string.
func Tail(s string, n int) string {
	return strings.Join(LastLines(s, n), "\n")
}
