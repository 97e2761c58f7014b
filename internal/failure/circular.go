package failure

import (
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"strings"
	"unicode"
)

// Circular-fix detection (docs/failures.md, after the seeds' CIRCULAR_FIX).
const (
	// circularThreshold is the Jaccard similarity above which two attempts
	// count as the same fix.
	circularThreshold = 0.3
	// circularWindow is how many of the latest earlier attempts are compared.
	circularWindow = 3
	// circularMatches is how many of them must be similar.
	circularMatches = 2
)

// stopWords are left out of the word sets: the seeds' list, a few more
// function words, and the words of autobuild's own message templates
// ("test gate failed", "agent exited with status"), which every report of a
// kind shares and which would make different failures look alike.
var stopWords = map[string]bool{
	// The seeds' list.
	"with": true, "using": true, "the": true, "a": true, "an": true, "and": true, "or": true, "but": true,
	"in": true, "on": true, "at": true, "to": true, "for": true, "trying": true,
	// Function words.
	"of": true, "is": true, "are": true, "was": true, "were": true, "be": true, "it": true, "its": true,
	"this": true, "that": true, "from": true, "by": true, "as": true, "not": true, "no": true,
	// autobuild's templates.
	"gate": true, "failed": true, "failing": true, "test": true, "tests": true, "exit": true,
	"exited": true, "status": true, "agent": true, "error": true, "errors": true,
}

// IsCircular reports whether current repeats earlier attempts: its words
// (Message, Details and BlockedOn, as WordSet splits them) have a Jaccard similarity above 0.3
// with at least two of the last three reports of history (oldest first,
// across resumes).
func IsCircular(current failreport.Report, history []failreport.Report) bool {
	if len(history) > circularWindow {
		history = history[len(history)-circularWindow:]
	}
	cur := words(current)
	similar := 0
	for _, h := range history {
		if Jaccard(cur, words(h)) > circularThreshold {
			similar++
		}
	}
	return similar >= circularMatches
}

// words is the word set of a report for IsCircular.
func words(r failreport.Report) map[string]bool {
	return WordSet(r.Message + " " + r.Details + " " + r.BlockedOn)
}

// WordSet splits text into its set of lowercase words, without stop words
// and without numbers: counts, line numbers and exit statuses change from
// attempt to attempt without the approach changing, and small numbers match
// by accident.
func WordSet(text string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if !stopWords[w] && !allDigits(w) {
			set[w] = true
		}
	}
	return set
}

// Jaccard returns |a ∩ b| / |a ∪ b|, 0 when both are empty: two reports
// with nothing to compare are not evidence of repetition.
func Jaccard(a, b map[string]bool) float64 {
	inter := 0
	for w := range a {
		if b[w] {
			inter++
		}
	}
	union := len(a) + len(b) - inter
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}

func allDigits(w string) bool {
	for _, r := range w {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}
