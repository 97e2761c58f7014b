package wtenv

import (
	"regexp"
	"strings"
)

// matcher holds include patterns in gitignore syntax (.worktreeinclude,
// [worktree] copy): the last pattern that matches a path decides, a
// leading ! takes a path back out, a trailing / matches folders only, a
// pattern with a / elsewhere is anchored at the repository root, and a
// folder's match takes everything in it.
type matcher struct{ pats []pattern }

type pattern struct {
	re      *regexp.Regexp
	negate  bool
	dirOnly bool
}

// newMatcher compiles lines; blank lines and # comments are skipped.
func newMatcher(lines []string) *matcher {
	m := &matcher{}
	for _, l := range lines {
		if p, ok := compilePattern(l); ok {
			m.pats = append(m.pats, p)
		}
	}
	return m
}

func compilePattern(line string) (pattern, bool) {
	line = strings.TrimRight(line, " \t\r")
	if line == "" || strings.HasPrefix(line, "#") {
		return pattern{}, false
	}
	var p pattern
	if strings.HasPrefix(line, "!") {
		p.negate, line = true, line[1:]
	} else if strings.HasPrefix(line, `\`) {
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		p.dirOnly, line = true, strings.TrimRight(line, "/")
	}
	anchored := strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")
	if line == "" {
		return pattern{}, false
	}
	body := globRegexp(line)
	if anchored {
		body = "^" + body + "$"
	} else {
		body = "^(?:.*/)?" + body + "$"
	}
	re, err := regexp.Compile(body)
	if err != nil {
		return pattern{}, false
	}
	p.re = re
	return p, true
}

// globRegexp turns a gitignore glob into a regular expression's body.
func globRegexp(g string) string {
	var b strings.Builder
	for i := 0; i < len(g); i++ {
		switch c := g[i]; {
		case strings.HasPrefix(g[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 2
		case strings.HasPrefix(g[i:], "/**") && i+3 == len(g):
			b.WriteString("/.*")
			i += 2
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			end := strings.IndexByte(g[i+1:], ']')
			if end < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := g[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += end + 1
		case c == '\\' && i+1 < len(g):
			i++
			b.WriteString(regexp.QuoteMeta(string(g[i])))
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}

// empty reports whether there is no pattern at all.
func (m *matcher) empty() bool { return len(m.pats) == 0 }

// match reports whether the slash-separated path (a folder when dir) is
// included: by a pattern of its own, or by one of a folder above it.
func (m *matcher) match(path string, dir bool) bool {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	for i := 1; i <= len(segs); i++ {
		isDir := i < len(segs) || dir
		if m.decide(strings.Join(segs[:i], "/"), isDir) {
			return true
		}
	}
	return false
}

// decide is the last matching pattern's verdict on path alone.
func (m *matcher) decide(path string, dir bool) bool {
	in := false
	for _, p := range m.pats {
		if p.dirOnly && !dir {
			continue
		}
		if p.re.MatchString(path) {
			in = !p.negate
		}
	}
	return in
}
