package gates

import (
	"slices"
	"strings"
)

// builtins are shell builtins and keywords: never "missing".
var builtins = map[string]bool{
	"cd": true, "test": true, "[": true, "true": true, "false": true, "echo": true, "printf": true,
	"export": true, "set": true, "unset": true, ".": true, "source": true, "exit": true, ":": true,
	"if": true, "for": true, "while": true, "case": true, "!": true, "{": true, "(": true,
	"command": true, "exec": true, "eval": true, "time": true, "type": true, "ulimit": true, "umask": true,
}

// wrapper is a command that runs the rest of the command line.
type wrapper struct {
	// args is how many positional arguments of its own it takes.
	args int
	// valued are its options that take a value ("-n 10").
	valued []string
}

// wrappers run the rest of the command line: the tool is what follows.
var wrappers = map[string]wrapper{
	"env":      {valued: []string{"-u", "--unset", "-C", "--chdir", "-S", "--split-string"}},
	"time":     {},
	"exec":     {},
	"command":  {},
	"nohup":    {},
	"nice":     {valued: []string{"-n", "--adjustment"}},
	"timeout":  {args: 1, valued: []string{"-k", "--kill-after", "-s", "--signal"}},
	"xvfb-run": {},
}

// ToolOf returns the program a gate's command line needs: its first word,
// skipping VAR=value assignments and wrappers such as env, time and
// timeout (with their options), and leading "cd DIR &&" steps. For sh -c
// and bash -c it is the first word of the script, and for a test or [ whose
// argument is a command substitution ('test -z "$(gofmt -l .)"') it is the
// substituted command's. "" for an empty command.
func ToolOf(command string) string {
	words := splitWords(command)
	for len(words) > 0 {
		w := words[0]
		switch {
		case w.op:
			words = words[1:]
		case isAssignment(w.text):
			words = words[1:]
		case w.text == "cd":
			words = skipCommand(words)
		case isWrapper(w.text):
			words = skipOptions(words[1:], wrappers[w.text])
		case (w.text == "sh" || w.text == "bash" || w.text == "zsh") && len(words) > 2 && words[1].text == "-c":
			return ToolOf(words[2].text)
		case (w.text == "test" || w.text == "[") && len(words) > 1:
			for _, a := range words[1:] {
				if a.op {
					break
				}
				if sub, ok := substitution(a.text); ok {
					if t := ToolOf(sub); t != "" {
						return t
					}
				}
			}
			return w.text
		default:
			return w.text
		}
	}
	return ""
}

func isWrapper(w string) bool {
	_, ok := wrappers[w]
	return ok
}

// skipOptions drops a wrapper's options ("-k 5", "-i") and its positional
// arguments (timeout's duration).
func skipOptions(words []word, w wrapper) []word {
	for len(words) > 0 && !words[0].op && strings.HasPrefix(words[0].text, "-") {
		if slices.Contains(w.valued, words[0].text) && len(words) > 1 {
			words = words[1:]
		}
		words = words[1:]
	}
	for n := w.args; n > 0 && len(words) > 0 && !words[0].op; n-- {
		words = words[1:]
	}
	return words
}

// skipCommand drops words up to and including the next operator.
func skipCommand(words []word) []word {
	for i, w := range words {
		if w.op {
			return words[i+1:]
		}
	}
	return nil
}

// substitution returns the command inside a word that holds a command
// substitution, "$(...)" or backquotes.
func substitution(w string) (string, bool) {
	if i := strings.Index(w, "$("); i >= 0 {
		if j := strings.LastIndex(w, ")"); j > i {
			return w[i+2 : j], true
		}
	}
	if i := strings.Index(w, "`"); i >= 0 {
		if j := strings.LastIndex(w, "`"); j > i {
			return w[i+1 : j], true
		}
	}
	return "", false
}

// isAssignment reports whether a shell word is a VAR=value assignment.
func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok || name == "" {
		return false
	}
	for i, r := range name {
		if r != '_' && (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// word is a shell word with its quotes removed, or an operator (&&, ||,
// ;, |, &).
type word struct {
	text string
	op   bool
}

// splitWords splits a command line into words and operators the way sh
// would, closely enough to find the program: quotes group, backslashes
// escape, and "$(...)" stays inside its word.
func splitWords(s string) []word {
	var out []word
	var cur strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			out = append(out, word{text: cur.String()})
			cur.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			flush()
		case c == ';' || c == '&' || c == '|':
			flush()
			op := string(c)
			if i+1 < len(s) && (s[i+1] == '&' || s[i+1] == '|') && c != ';' {
				op += string(s[i+1])
				i++
			}
			out = append(out, word{text: op, op: true})
		case c == '\\' && i+1 < len(s):
			inWord = true
			i++
			cur.WriteByte(s[i])
		case c == '\'':
			inWord = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				j = len(s) - i - 1
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			inWord = true
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(`"\$`+"`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
		case c == '$' && i+1 < len(s) && s[i+1] == '(':
			// A command substitution stays whole, quotes and all: ToolOf
			// splits it again when it needs the command inside.
			inWord = true
			end := substitutionEnd(s, i+1)
			cur.WriteString(s[i:end])
			i = end - 1
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	flush()
	return out
}

// substitutionEnd returns the index just past the parenthesis that closes
// the one at open, skipping quoted text; len(s) when it is never closed.
func substitutionEnd(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '\'', '"':
			if j := strings.IndexByte(s[i+1:], s[i]); j >= 0 {
				i += j + 1
			} else {
				return len(s)
			}
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return len(s)
}
