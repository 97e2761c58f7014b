package plan

import (
	"unicode"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// lookAlike maps letters that look like an ASCII letter or digit (Cyrillic,
// Greek) to it. Fullwidth forms are folded separately. It is the small part
// of Unicode's confusables that can appear in a phase id.
var lookAlike = map[rune]rune{
	'А': 'a', 'В': 'b', 'Е': 'e', 'К': 'k', 'М': 'm', 'Н': 'h', 'О': 'o', 'Р': 'p', 'С': 'c', 'Т': 't', 'Х': 'x',
	'У': 'y', 'І': 'i', 'Ј': 'j', 'Ѕ': 's', 'Ԁ': 'd', 'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y',
	'х': 'x', 'і': 'i', 'ј': 'j', 'ѕ': 's', 'ԁ': 'd', 'һ': 'h', 'Α': 'a', 'Β': 'b', 'Ε': 'e', 'Ζ': 'z', 'Η': 'h',
	'Ι': 'i', 'Κ': 'k', 'Μ': 'm', 'Ν': 'n', 'Ο': 'o', 'Ρ': 'p', 'Τ': 't', 'Υ': 'y', 'Χ': 'x', 'ο': 'o', 'ν': 'v',
	'ι': 'i', 'κ': 'k', 'α': 'a',
}

// skeleton is what an id looks like: look-alike letters and fullwidth
// forms folded to ASCII, lowercased.
func skeleton(id phaseid.ID) string {
	out := make([]rune, 0, len(id))
	for _, r := range id {
		switch {
		case r >= 0xFF10 && r <= 0xFF19, r >= 0xFF21 && r <= 0xFF3A, r >= 0xFF41 && r <= 0xFF5A:
			r -= 0xFF00 - 0x20 // fullwidth to ASCII
		default:
			if a, ok := lookAlike[r]; ok {
				r = a
			}
		}
		out = append(out, unicode.ToLower(r))
	}
	return string(out)
}

// LookAlikeIDs returns the pairs of phases whose ids differ but look the
// same (2A and 2А, the second with a Cyrillic А): a reader cannot tell
// which one a message, a dependency or a commit names.
func LookAlikeIDs(pl *Plan) [][2]*Phase {
	seen := map[string]*Phase{}
	var pairs [][2]*Phase
	for _, p := range pl.Phases {
		k := skeleton(p.ID)
		if first, ok := seen[k]; ok && first.ID != p.ID {
			pairs = append(pairs, [2]*Phase{first, p})
			continue
		}
		seen[k] = p
	}
	return pairs
}
