package plan

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/autobuild-sh/autobuild/internal/lazyre"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// ref is one reference to other phases in a Depends On or Parallel With
// cell: a single id, or a range of phase numbers.
type ref struct {
	text    string     // as written ("Phase 7", "1–4"), for messages
	id      phaseid.ID // normalized id; empty for a range
	isRange bool
	lo, hi  int // inclusive bounds of a range
	// prefix is a range's normalized letter prefix: "f" in "F1–F3", "wu"
	// in "WU-01–03"; empty for a range of plain numbers.
	prefix string
	// all is "all" in a dependency cell: every phase above this one.
	all bool
}

// refList is a parsed Depends On or Parallel With cell (or metadata value).
type refList struct {
	raw  string // the value as written, markdown stripped, for messages
	line int    // where it was written
	refs []ref
	// optional is set by an aside saying the references may be absent
	// ("Phase 0 (or nothing if skipped)"): a reference naming no phase is
	// then dropped, not reported.
	optional bool
	// anyParallel is a Parallel cell saying "Yes" without naming phases:
	// the phase may run alongside any other such phase of its batch.
	anyParallel bool
}

// allWords are the ways people write "every phase above this one" in a
// dependency cell.
var allWords = map[string]bool{
	"all": true, "all phases": true, "all above": true, "all previous": true,
	"all prior": true, "all previous phases": true, "all prior phases": true,
	"all of the above": true, "all phases above": true, "everything above": true,
	"everything": true, "all others": true,
}

var (
	// noneWords are the ways people write "no dependencies".
	noneWords = map[string]bool{
		"": true, "-": true, "--": true, "—": true, "–": true, "none": true,
		"nothing": true, "n/a": true, "na": true, "nil": true, "null": true,
		"no": true, "no dependencies": true, "·": true,
	}
)

// cellMarkup is the markdown people put in cells and metadata values:
// bold, code, link brackets. A Replacer is safe for concurrent use.
var cellMarkup = strings.NewReplacer("*", "", "`", "", "[", "", "]", "")

// cleanCell drops cellMarkup and surrounding space.
func cleanCell(s string) string {
	return strings.TrimSpace(cellMarkup.Replace(s))
}

// isNone reports whether a cleaned cell means "no phases".
func isNone(s string) bool {
	if len(s) > 20 {
		return false
	}
	return noneWords[strings.TrimRight(strings.ToLower(strings.TrimSpace(s)), ".")]
}

// dropParentheticals removes "(…)" asides: "Phase 0 (or nothing if
// skipped)" → "Phase 0". An unclosed parenthesis drops the rest.
func dropParentheticals(s string) string {
	if !strings.Contains(s, "(") {
		return s
	}
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// parseRefs reads a Depends On or Parallel With value.
func parseRefs(raw string, line int) refList {
	list := refList{raw: cleanCell(raw), line: line}
	s := list.raw
	if isNone(s) {
		return list
	}
	list.optional = strings.Contains(s, "(") && optionalAside().MatchString(s)
	s = dropParentheticals(s)
	if allWords[strings.Join(strings.Fields(strings.ToLower(strings.TrimRight(s, ". "))), " ")] {
		list.refs = []ref{{text: s, all: true}}
		return list
	}
	for _, part := range splitRefs(s) {
		part = strings.TrimSpace(part)
		part, _ = cutPhaseWord(part)
		part = strings.TrimLeft(part, "# ")
		if isNone(part) {
			continue
		}
		if r, ok := parseRange(part); ok {
			list.refs = append(list.refs, r)
			continue
		}
		token, rest := scanToken(part)
		if token == "" {
			// Nothing id-like: keep it so the user hears about it.
			list.refs = append(list.refs, ref{text: part})
			continue
		}
		if r := strings.TrimLeft(rest, " \t"); strings.HasPrefix(r, "–") || strings.HasPrefix(r, "—") {
			// A range parseRange cannot read ("F1–G3", "2A–2C"): naming its
			// first id alone would run the phase too early.
			list.refs = append(list.refs, ref{text: strings.TrimSpace(part)})
			continue
		}
		list.refs = append(list.refs, ref{text: token, id: NormalizeID(token)})
		// "2A 2B": more ids separated by spaces only. Trailing words
		// ("Phase 1 complete") are ignored, so this applies only when every
		// word left starts with a digit.
		if more := strings.Fields(rest); len(more) > 0 && allStartWithDigit(more) {
			for _, w := range more {
				if token, _ := scanToken(w); token != "" {
					list.refs = append(list.refs, ref{text: token, id: NormalizeID(token)})
				}
			}
		}
	}
	return list
}

// optionalAside matches an aside that makes references optional: "(or
// nothing if skipped)", "(if any)", "(optional)", "(none if skipped)".
var optionalAside = lazyre.New(`(?i)\([^)]*\b(nothing|none|optional|if (any|present|exists|skipped|needed|used))\b`)

// allStartWithDigit reports whether every word starts with an ASCII digit.
func allStartWithDigit(words []string) bool {
	for _, w := range words {
		if w[0] < '0' || w[0] > '9' {
			return false
		}
	}
	return true
}

// splitRefs splits a list of references at ",", ";", "&", "+", "/" and the
// words "and" and "or": "2A, 2B and 2C", "1 & 2". (Hand-written: a regexp
// here was most of the time of parsing a large plan.)
func splitRefs(s string) []string {
	var parts []string
	start := 0
	for i := 0; i < len(s); {
		switch {
		case strings.IndexByte(",;&+/", s[i]) >= 0:
			parts = append(parts, s[start:i])
			i++
			start = i
		case wordAt(s, i, "and"):
			parts = append(parts, s[start:i])
			i += len("and")
			start = i
		case wordAt(s, i, "or"):
			parts = append(parts, s[start:i])
			i += len("or")
			start = i
		default:
			i++
		}
	}
	return append(parts, s[start:])
}

// wordAt reports whether the word w (any case) stands alone at s[i:].
func wordAt(s string, i int, w string) bool {
	end := i + len(w)
	if end > len(s) || !strings.EqualFold(s[i:end], w) {
		return false
	}
	return (i == 0 || !isASCIIWord(s[i-1])) && (end == len(s) || !isASCIIWord(s[end]))
}

// isASCIIWord reports whether c is a letter, digit or underscore.
func isASCIIWord(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z'
}

// parseParallel reads a Parallel With cell or metadata value. Besides the
// references parseRefs reads, people answer the column's question: "Yes:
// with Phase 3", "Yes (2B)", "Yes", "No". A "Yes" naming no phase sets
// anyParallel.
func parseParallel(raw string, line int) refList {
	clean := cleanCell(raw)
	word, rest := clean, ""
	if i := strings.IndexFunc(clean, func(r rune) bool { return !unicode.IsLetter(r) }); i >= 0 {
		word, rest = clean[:i], clean[i:]
	}
	switch strings.ToLower(word) {
	case "yes", "y", "true":
	default:
		return parseRefs(raw, line)
	}
	const punct = " \t:,;-–—()"
	rest = strings.Trim(rest, punct)
	for _, w := range []string{"with ", "alongside ", "in parallel with "} {
		if len(rest) >= len(w) && strings.EqualFold(rest[:len(w)], w) {
			rest = strings.Trim(rest[len(w):], punct)
		}
	}
	list := parseRefs(rest, line)
	list.raw = clean
	list.anyParallel = len(list.refs) == 0
	return list
}

// parseRange reads ranges of two plain numbers: "1-4", "1–4", "1 to 4",
// "1..4", "1 - Phase 4", and of two ids with one letter prefix: "F1–F3",
// "F1-F3", "WU-01–03", "WU-01–WU-03". "2-A" and "WU-01" are not ranges:
// they are ids.
func parseRange(s string) (ref, bool) {
	prefix, s := cutIDPrefix(s)
	lo, rest, ok := cutNumber(s)
	if !ok {
		return ref{}, false
	}
	rest = strings.TrimLeft(rest, " \t")
	sep := ""
	for _, candidate := range []string{"-", "–", "—", "..", "to", "through"} {
		if len(rest) >= len(candidate) && strings.EqualFold(rest[:len(candidate)], candidate) {
			sep = candidate
			break
		}
	}
	if sep == "" {
		return ref{}, false
	}
	after := rest[len(sep):]
	if isASCIIWord(sep[0]) && after != "" && after[0]|0x20 >= 'a' && after[0]|0x20 <= 'z' {
		return ref{}, false // "1 tomorrow"
	}
	after, _ = cutPhaseWord(strings.TrimLeft(after, " \t"))
	if prefix != "" {
		// The second id may repeat the prefix ("F1–F3") or not ("WU-01–03").
		if p2, a2 := cutIDPrefix(after); p2 != "" {
			if normalize(p2) != normalize(prefix) {
				return ref{}, false
			}
			after = a2
		}
	}
	hi, tail, ok := cutNumber(after)
	if !ok {
		return ref{}, false
	}
	if tail != "" {
		if r, _ := utf8.DecodeRuneInString(tail); unicode.IsLetter(r) || unicode.IsDigit(r) {
			return ref{}, false // "1-4b"
		}
	}
	text := prefix + s[:len(s)-len(tail)]
	if lo > hi {
		lo, hi = hi, lo
	}
	return ref{text: text, isRange: true, lo: lo, hi: hi, prefix: normalize(prefix)}, true
}

// cutIDPrefix cuts the letters in front of an id's number, with a hyphen or
// underscore joining them: "F" of "F1", "WU-" of "WU-01". It cuts nothing
// unless a digit follows.
func cutIDPrefix(s string) (prefix, rest string) {
	i := 0
	for i < len(s) && (s[i]|0x20 >= 'a' && s[i]|0x20 <= 'z') {
		i++
	}
	if i == 0 {
		return "", s
	}
	j := i
	if j < len(s) && (s[j] == '-' || s[j] == '_') {
		j++
	}
	if j < len(s) && s[j] >= '0' && s[j] <= '9' {
		return s[:j], s[j:]
	}
	return "", s
}

// cutNumber reads the decimal number at the start of s.
func cutNumber(s string) (n int, rest string, ok bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, s, false
	}
	n, err := strconv.Atoi(s[:i])
	return n, s[i:], err == nil
}

// isStatusMark reports whether r is one of the emoji people use for a
// phase's status: done, skipped, or one of the marks for not done yet
// (not started, in progress, blocked, failed, waiting, under way).
func isStatusMark(r rune) bool {
	return strings.ContainsRune("✅✔☑⏭⬜🔄⏸❌🚧⏳☐", r)
}

// parseStatus reads a Status cell or metadata value. stated is false when
// the value says nothing (empty, "-"), so another source may decide.
func parseStatus(s string) (status PlanStatus, stated bool) {
	if t := strings.TrimSpace(s); strings.HasPrefix(t, "[x]") || strings.HasPrefix(t, "[X]") {
		return StatusComplete, true
	}
	s = cleanCell(s)
	if low := strings.ToLower(s); strings.HasPrefix(low, "n/a") {
		// "N/A" says the phase does not apply, not that the cell is empty.
		return StatusSkipped, true
	}
	if isNone(s) {
		return StatusOpen, false
	}
	// The first mark or word decides: "⬜/⏭️" and "⬜ Not Started | ✅
	// Complete" are a template's choices left in place, and the first is
	// the default; "Complete ✔️" is complete.
	i := strings.IndexFunc(s, func(r rune) bool { return isStatusMark(r) || unicode.IsLetter(r) })
	if i >= 0 {
		switch r, _ := utf8.DecodeRuneInString(s[i:]); r {
		case '✅', '✔', '☑':
			return StatusComplete, true
		case '⏭':
			return StatusSkipped, true
		default:
			if !unicode.IsLetter(r) {
				return StatusOpen, true
			}
		}
	}
	word := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
	if len(word) == 0 {
		return StatusOpen, true
	}
	next := func(i int) string {
		if i < len(word) {
			return word[i]
		}
		return ""
	}
	switch word[0] {
	case "complete", "completed", "done", "finished":
		return StatusComplete, true
	case "skipped", "skip", "waived", "deferred", "dropped", "cancelled", "canceled",
		"obsolete", "superseded", "wontfix":
		return StatusSkipped, true
	case "n":
		if next(1) == "a" { // "N/A"
			return StatusSkipped, true
		}
	case "won":
		if next(1) == "t" { // "Won't do"
			return StatusSkipped, true
		}
	case "not":
		if next(1) == "applicable" || next(1) == "needed" {
			return StatusSkipped, true
		}
	case "out":
		if next(1) == "of" && next(2) == "scope" {
			return StatusSkipped, true
		}
	}
	return StatusOpen, true
}
