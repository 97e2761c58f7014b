package plan

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/autobuild-sh/autobuild/internal/lazyre"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// NormalizeID turns a phase id as written into the key used everywhere:
// a leading "Phase" word is dropped, letters are lowercased, and spaces,
// hyphens and punctuation are dropped ("Phase 2-A" → "2a"), except the dots
// inside an id: "1.1" and "11" are two phases, and "0.5" stays "0.5".
func NormalizeID(s string) phaseid.ID { return phaseid.ID(normalize(s)) }

// normalize is NormalizeID for text that is not a whole id: a range's
// letter prefix ("F" in "F1–F3"), a reference that names no phase.
func normalize(s string) string {
	s = trimPhaseWord(strings.TrimSpace(s))
	if isNormal(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	dot := false // a dot waits until a rune follows it: none at either end, never two
	for _, r := range s {
		switch {
		case isIDRune(r):
			if dot && b.Len() > 0 {
				b.WriteByte('.')
			}
			dot = false
			b.WriteRune(unicode.ToLower(r))
		case r == '.':
			dot = true
		}
	}
	return b.String()
}

// isNormal reports whether s is already a normalized id (lowercase ASCII
// letters and digits, single dots inside): the common case, which needs no
// copy.
func isNormal(s string) bool {
	if s == "" || s[0] == '.' || s[len(s)-1] == '.' || strings.Contains(s, "..") {
		return s == ""
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'z') && c != '.' {
			return false
		}
	}
	return true
}

// isIDRune reports whether r survives normalization. The token scanner uses
// the same test so a non-empty token always yields a non-empty id.
func isIDRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// trimPhaseWord drops a leading "Phase" (any case) when it stands as a word
// of its own or runs straight into the id ("Phase2A"), but not when it is
// the start of a longer word ("Phaseout").
func trimPhaseWord(s string) string {
	rest, ok := cutPhaseWord(s)
	if !ok {
		return s
	}
	return rest
}

// cutPhaseWord is trimPhaseWord that also says whether the word was there.
// A plural "Phases" counts too, as in "Phases 1–4".
func cutPhaseWord(s string) (string, bool) {
	const word = "phase"
	if len(s) < len(word) || !strings.EqualFold(s[:len(word)], word) {
		return s, false
	}
	rest := s[len(word):]
	if len(rest) > 0 && (rest[0] == 's' || rest[0] == 'S') {
		if len(rest) == 1 || !isIDStart(rest[1:]) {
			rest = rest[1:]
		}
	}
	if rest != "" {
		r, _ := utf8.DecodeRuneInString(rest)
		if unicode.IsLetter(r) {
			return s, false
		}
	}
	return strings.TrimSpace(rest), true
}

// isIDStart reports whether s starts with a letter (so "Phases" is not cut
// out of "Phasesomething").
func isIDStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLetter(r)
}

// scanToken reads the id token at the start of s: it skips anything that
// cannot start an id ("#3"), then takes letters, digits and the joiners
// '-', '.', '_' ("2-A", "1.5"), and drops trailing joiners ("1." in
// "Phase 1. Setup"). It returns the token and the rest of s.
func scanToken(s string) (token, rest string) {
	start := strings.IndexFunc(s, isIDRune)
	if start < 0 {
		return "", s
	}
	end := start
	for end < len(s) {
		r, size := utf8.DecodeRuneInString(s[end:])
		if !isIDRune(r) && r != '-' && r != '.' && r != '_' {
			break
		}
		end += size
	}
	token = strings.TrimRight(s[start:end], "-._")
	return token, s[start+len(token):]
}

// leadingNumber is the number an id starts with ("2a" → 2), or -1. Ranges
// in dependency cells select phases by it.
func leadingNumber(id string) int {
	n, digits := 0, 0
	for i := 0; i < len(id) && id[i] >= '0' && id[i] <= '9'; i++ {
		if digits >= 9 { // Out of any sensible range; avoid overflow.
			return -1
		}
		n = n*10 + int(id[i]-'0')
		digits++
	}
	if digits == 0 {
		return -1
	}
	return n
}

// title is what a phase heading or a table's Phase cell says:
// "Phase 2A: Backend API (est 8) ✅".
type title struct {
	display  phaseid.Display // the id as written ("2-A")
	id       phaseid.ID      // normalized ("2a")
	name     string
	estimate string
	status   PlanStatus
}

var (
	// estimateSuffix matches a trailing "(est 8)", "(estimate: 3 days)".
	estimateSuffix = lazyre.New(`(?i)\s*\(\s*(?:est|estimate|effort)\b\.?\s*:?\s*([^)]*)\)\s*$`)
	// nameSeparators are what people put between a phase id and its name.
	nameSeparators = ":-—–|.)"
)

// parseTitle reads a phase heading or Phase cell. With needPrefix (headings)
// the text must start with the word "Phase"; table cells may omit it.
func parseTitle(s string, needPrefix bool) (title, bool) {
	// Marks before the text ("🚀 Phase 1", "✅ Phase 2: API") are
	// decoration, or the phase's status.
	s = strings.TrimSpace(s)
	lead := strings.IndexFunc(s, isIDRune)
	if lead < 0 {
		return title{}, false
	}
	leadStatus, _ := parseStatus(s[:lead])
	s = s[lead:]
	rest, had := cutPhaseWord(s)
	if needPrefix && !had {
		return title{}, false
	}
	rest = strings.TrimLeft(rest, "# \t")
	token, after := scanToken(rest)
	// The token must be at the very start: "Phase: the plan" is no id.
	if token == "" || !strings.HasPrefix(rest, token) {
		return title{}, false
	}
	t := title{display: phaseid.Display(token), id: NormalizeID(token)}
	if t.id == "" {
		return title{}, false
	}
	name := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(after), nameSeparators))
	for range 2 { // The estimate and the status mark may come in either order.
		// The regexp is the slow part of reading a title; most names
		// have no parenthesis for it to find.
		if strings.Contains(name, "(") {
			if m := estimateSuffix().FindStringSubmatchIndex(name); m != nil {
				t.estimate = strings.TrimSpace(name[m[2]:m[3]])
				name = strings.TrimSpace(name[:m[0]])
			}
		}
		if i := strings.IndexAny(name, "✅⏭"); i >= 0 {
			if st, stated := parseStatus(name[i:]); stated {
				t.status = st
			}
			name = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(name[:i]), ":-—–|,("))
		}
	}
	t.name = name
	if t.status == StatusOpen {
		t.status = leadStatus
	}
	return t, true
}

// looksLikePhaseID reports whether a heading's id is plausibly a phase id:
// ids have a digit ("2A") or are very short ("A"), unless the table names
// them. This keeps "## Phase Overview" from becoming a phase.
func looksLikePhaseID(id phaseid.ID, tableIDs map[phaseid.ID]bool) bool {
	if tableIDs[id] || utf8.RuneCountInString(string(id)) <= 2 {
		return true
	}
	return strings.ContainsFunc(string(id), unicode.IsDigit)
}
