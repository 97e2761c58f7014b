package adapters

import "strings"

// unwrapShell shows `bash -lc 'go test ./...'` as the command it runs: the
// argument of -c read as the shell reads it, so codex's
// `/bin/bash -lc "printf '%s' \"a\" > x"` shows as `printf '%s' "a" > x`,
// without its quotes and escapes.
func unwrapShell(cmd string) string {
	for _, pre := range []string{"/bin/bash -lc ", "bash -lc ", "/bin/sh -c ", "sh -c ", "/usr/bin/bash -lc ",
		"/bin/bash -c ", "bash -c ", "/bin/zsh -lc ", "zsh -lc "} {
		rest, ok := strings.CutPrefix(cmd, pre)
		if !ok {
			continue
		}
		rest = strings.TrimSpace(rest)
		if w, ok := shellWord(rest); ok {
			return w
		}
		if q := rest[:min(1, len(rest))]; (q == `"` || q == "'") && !strings.HasSuffix(rest, q) {
			// Cut short (or quoted in a way not read here): no
			// opening quote without its closing one.
			return rest[1:]
		}
		return rest
	}
	return cmd
}

// shellWord reads s as one word of a POSIX shell: unquoted text, 'single
// quoted' and "double quoted" parts run together, a backslash escaping the
// next character (in double quotes only $ ` " \ and a newline). ok is false
// when s is more than one word or a quote is never closed.
func shellWord(s string) (word string, ok bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return "", false
			}
			b.WriteString(s[i+1 : i+1+end])
			i += end + 1
		case '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
					i++
				}
				b.WriteByte(s[i])
			}
			if i >= len(s) {
				return "", false
			}
		case '\\':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			}
		case ' ', '\t', '\n':
			return "", false
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}
