// Package shell writes command lines for people to paste into a POSIX shell
// (resume instructions, watch hints) and for scripts autobuild generates
// (commits.sh).
package shell

import "strings"

// Quote returns s as one shell word: unchanged when every character is one
// that no shell treats specially (letters, digits and @%+=:,./-_, the set
// Python's shlex.quote trusts), else in single quotes. An allowlist, so that
// a character nobody thought of (~, #, a newline) is quoted too.
func Quote(s string) string {
	if s != "" && strings.IndexFunc(s, unsafe) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Join quotes each word and joins them with spaces.
func Join(words ...string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = Quote(w)
	}
	return strings.Join(quoted, " ")
}

func unsafe(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return false
	}
	return !strings.ContainsRune("@%+=:,./-_", r)
}
