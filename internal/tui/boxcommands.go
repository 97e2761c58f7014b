package tui

import (
	"strings"

	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/summary"
	"github.com/autobuild-sh/autobuild/internal/textwrap"
)

// unbrokenCommands are the halt summary's commands shown under its box for
// a copy with the mouse: each on one line when it fits in width w, else
// under its label, broken between shell words with a trailing backslash,
// so the lines pasted together are still the one command (never clipped at
// the screen's edge).
func unbrokenCommands(in *summary.Input, fix string, w int) string {
	if in == nil || in.Run == nil || in.Run.Status == state.RunComplete || in.ResumeCommand == "" {
		return ""
	}
	lines := []string{""}
	add := func(label, hint, cmd string) {
		cmd = textwrap.CleanLine(cmd)
		if one := label + " " + cmd + hint; width(one) <= w {
			lines = append(lines, one)
			return
		}
		name := strings.TrimSuffix(strings.TrimSpace(label), ":")
		if h := strings.TrimSpace(hint); h != "" {
			name += " " + h
		}
		lines = append(lines, name+":")
		lines = append(lines, continued(cmd, w, "  ")...)
	}
	if fix != "" {
		add("Fix:   ", "   (c copies it)", fix)
	}
	hint := "   (c copies it)"
	if fix != "" {
		hint = "   (c again)"
	}
	add("Resume:", hint, in.ResumeCommand)
	if in.FreshCommand != "" {
		add("Fresh: ", "", in.FreshCommand)
	}
	return strings.Join(lines, "\n")
}

// continued breaks a shell command into lines of at most w cells, each but
// the last ending with " \\", between words (a quoted word is never split);
// a word longer than a line stands alone on its own.
func continued(cmd string, w int, indent string) []string {
	var lines []string
	cur := indent
	for _, word := range shellWords(cmd) {
		switch {
		case cur == indent:
			cur += word
		case width(cur)+1+width(word)+2 <= w:
			cur += " " + word
		default:
			lines = append(lines, cur+" \\")
			cur = indent + word
		}
	}
	return append(lines, cur)
}

// shellWords splits a command at the spaces outside quotes.
func shellWords(cmd string) []string {
	var words []string
	var cur strings.Builder
	var quote rune
	for _, r := range cmd {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == ' ':
			if cur.Len() > 0 {
				words = append(words, cur.String())
				cur.Reset()
			}
			continue
		}
		cur.WriteRune(r)
	}
	if cur.Len() > 0 {
		words = append(words, cur.String())
	}
	return words
}
