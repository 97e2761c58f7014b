package gitx

import (
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// MessageInput is what a phase's conventional commit message is made from.
type MessageInput struct {
	// PhaseID is the normalized id ("2a"); it goes in the trailer.
	PhaseID phaseid.ID
	// DisplayID is the id as the plan writes it ("2A"); it goes in the body.
	DisplayID phaseid.Display
	// Name is the phase's name ("Backend API").
	Name string
	// Files are the paths the phase changed, relative to the repository root.
	Files []string
}

// maxHeader is the conventional limit of a commit's first line.
const maxHeader = 72

// typeWords maps words of a phase name to a conventional commit type; the
// first word of the name found here decides, else the type is "feat".
var typeWords = map[string]string{
	"test": "test", "tests": "test", "testing": "test",
	"docs": "docs", "doc": "docs", "documentation": "docs", "readme": "docs",
	"bootstrap": "chore", "setup": "chore", "scaffold": "chore", "scaffolding": "chore",
	"config": "chore", "configuration": "chore", "tooling": "chore", "ci": "chore", "chore": "chore",
	"fix": "fix", "fixes": "fix", "bug": "fix", "bugs": "fix", "bugfix": "fix", "hotfix": "fix",
	"refactor": "refactor", "refactoring": "refactor",
	"perf": "perf", "performance": "perf",
}

// containerDirs say where code lives, not what it is about: the scope is the
// directory below them.
var containerDirs = map[string]bool{
	"src": true, "internal": true, "pkg": true, "lib": true, "app": true, "cmd": true, ".": true,
}

// nameStopWords are words of a phase name too vague to be a scope.
var nameStopWords = map[string]bool{
	"a": true, "an": true, "the": true, "and": true, "or": true, "of": true, "for": true,
	"to": true, "with": true, "in": true, "on": true, "at": true, "by": true, "from": true,
	"into": true, "phase": true, "initial": true, "basic": true, "add": true, "adds": true,
	"implement": true, "implementation": true, "create": true, "build": true, "set": true,
	"up": true, "new": true, "core": true, "first": true, "final": true, "step": true,
	"part": true, "stage": true,
}

// ConventionalMessage writes the commit message of a phase:
//
//	feat(api): backend API
//
//	Phase 2A of the plan.
//
//	Autobuild-Phase: 2a
//
// The type comes from the phase name, the scope from the most common
// meaningful directory among the files (else the name's first significant
// word), the subject from the name; the first line stays within 72
// characters.
func ConventionalMessage(m MessageInput) string {
	typ := commitType(m.Name)
	scope := scopeFromFiles(m.Files)
	if scope == "" {
		scope = scopeFromName(m.Name)
	}
	display := m.DisplayID.Or(m.PhaseID)
	var b strings.Builder
	b.WriteString(header(typ, scope, subject(m.Name, display)))
	b.WriteString("\n\nPhase " + string(display) + " of the plan.\n\n")
	b.WriteString(TrailerKey + ": " + string(m.PhaseID) + "\n")
	return b.String()
}

// words splits s into lowercase runs of letters and digits.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

func commitType(name string) string {
	for _, w := range words(name) {
		if t, ok := typeWords[w]; ok {
			return t
		}
	}
	return "feat"
}

// scopeFromFiles picks the most common meaningful directory of files; ties
// go to the one seen first.
func scopeFromFiles(files []string) string {
	counts := map[string]int{}
	var order []string
	for _, f := range files {
		s := fileScope(f)
		if s == "" {
			continue
		}
		if counts[s] == 0 {
			order = append(order, s)
		}
		counts[s]++
	}
	best := ""
	for _, s := range order {
		if counts[s] > counts[best] {
			best = s
		}
	}
	return best
}

// fileScope is the first directory of f that is not a container directory
// ("internal/api/h.go" → "api"); "" for a file at the root.
func fileScope(f string) string {
	dir := path.Dir(strings.ReplaceAll(f, "\\", "/"))
	if dir == "." || dir == "/" {
		return ""
	}
	for c := range strings.SplitSeq(dir, "/") {
		if c == "" || containerDirs[c] {
			continue
		}
		return sanitizeScope(c)
	}
	return ""
}

// sanitizeScope makes a directory name a conventional scope: lowercase,
// no leading dots (".github" → "github"), only letters, digits, - and _.
func sanitizeScope(s string) string {
	s = strings.ToLower(strings.TrimLeft(s, "._"))
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' {
			return r
		}
		return '-'
	}, s)
}

// scopeFromName is the first word of the name that is neither a stop word,
// a type word, a number nor a single letter.
func scopeFromName(name string) string {
	for _, w := range words(name) {
		if nameStopWords[w] || typeWords[w] != "" || utf8.RuneCountInString(w) < 2 || isNumber(w) {
			continue
		}
		return w
	}
	return ""
}

func isNumber(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return !unicode.IsDigit(r) }) < 0
}

// subject is the phase name with its first letter lowercased (unless it
// starts an acronym: "API gateway" stays) and no trailing period.
func subject(name string, display phaseid.Display) string {
	s := strings.Join(strings.Fields(name), " ")
	s = strings.TrimRight(s, ". ")
	if s == "" {
		return "phase " + string(display)
	}
	first, size := utf8.DecodeRuneInString(s)
	next, _ := utf8.DecodeRuneInString(s[size:])
	if !unicode.IsUpper(next) {
		s = string(unicode.ToLower(first)) + s[size:]
	}
	return s
}

// header joins type, scope and subject, shortening the subject at a word
// boundary (and dropping an overlong scope) to stay within maxHeader.
func header(typ, scope, subj string) string {
	prefix := typ + ": "
	if scope != "" {
		prefix = typ + "(" + scope + "): "
	}
	if utf8.RuneCountInString(prefix) > maxHeader/2 {
		prefix = typ + ": "
	}
	room := maxHeader - utf8.RuneCountInString(prefix)
	if utf8.RuneCountInString(subj) > room {
		runes := []rune(subj)[:room]
		cut := string(runes)
		if i := strings.LastIndex(cut, " "); i > room/2 {
			cut = cut[:i]
		}
		subj = strings.TrimRight(cut, " .,;:-")
	}
	return prefix + subj
}
