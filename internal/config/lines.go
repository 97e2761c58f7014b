package config

import (
	"strings"
)

// keyLine finds the 1-based line that defines a key ("gates", "test"), by
// following the file's table headers and key/value lines: the TOML decoder
// does not say where a decoded key was. 0 when it is not found (a quoted
// or inline-table key, say).
func keyLine(text string, key []string) int {
	var table []string
	for i, raw := range strings.Split(text, "\n") {
		l := strings.TrimSpace(raw)
		switch {
		case l == "" || strings.HasPrefix(l, "#"):
			continue
		case strings.HasPrefix(l, "["):
			name := strings.Trim(l[:strings.IndexByte(l+"]", ']')+1], "[] ")
			if cut := strings.IndexByte(l, '#'); cut >= 0 {
				name = strings.Trim(l[:cut], "[] \t")
			}
			table = splitKey(name)
			if equalKey(table, key) {
				return i + 1
			}
			continue
		}
		name, _, ok := strings.Cut(l, "=")
		if !ok {
			continue
		}
		full := append(append([]string(nil), table...), splitKey(name)...)
		if equalKey(full, key) || (len(key) > len(full) && equalKey(full, key[:len(full)])) {
			return i + 1
		}
	}
	return 0
}

// classifyLine finds the line of the n-th (0-based) [[classify]] header.
func classifyLine(text string, n int) int {
	for i, raw := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(raw), "[[classify]]") {
			if n == 0 {
				return i + 1
			}
			n--
		}
	}
	return 0
}

// splitKey splits a dotted key, dropping quotes and spaces.
func splitKey(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ".") {
		out = append(out, strings.Trim(strings.TrimSpace(p), `"'`))
	}
	return out
}

func equalKey(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
