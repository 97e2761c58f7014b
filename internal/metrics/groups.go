package metrics

import (
	"slices"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/history"
	"github.com/autobuild-sh/autobuild/internal/lazyre"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// maxGroups is how many failure groups a report keeps.
const maxGroups = 10

var (
	pathLike = lazyre.New(`(?:[A-Za-z]:)?[\w.~-]*[/\\][\w./\\~-]*(?::\d+)*`)
	hexLike  = lazyre.New(`\b[0-9a-f]{7,64}\b`)
	// numLike is a number standing alone or with a unit ("31.5s", "80%"),
	// not one inside a word ("2a", "TestA1", "utf8").
	numLike = lazyre.New(`\b\d+(?:\.\d+)?(ms|s|m|h|%|x|KB|MB|GB|KiB|MiB|GiB)?\b`)
	spaces  = lazyre.New(`\s+`)
)

// Normalize reduces a failure message to its shape, so that failures with
// one systemic cause group together: paths become <path>, hashes <hash>,
// numbers N ("exit status 2 after 31.5s in calc/format.go:12" and "exit
// status 1 after 2s in api/x.go:3" are one shape).
func Normalize(msg string) string {
	s := pathLike().ReplaceAllString(msg, "<path>")
	s = hexLike().ReplaceAllStringFunc(s, func(h string) string {
		if strings.ContainsAny(h, "0123456789") {
			return "<hash>"
		}
		return h
	})
	s = numLike().ReplaceAllString(s, "N$1")
	return strings.TrimSpace(spaces().ReplaceAllString(s, " "))
}

func (a *aggregator) group(r history.Record) {
	key := [2]string{r.FailureType, Normalize(r.FailureMessage)}
	g := a.groups[key]
	if g == nil {
		g = &FailureGroup{Type: key[0], Pattern: key[1], Phases: []phaseid.Display{}}
		a.groups[key] = g
	}
	g.Count++
	if !slices.Contains(g.Phases, r.Label()) {
		g.Phases = append(g.Phases, r.Label())
	}
	if !r.Time.Before(g.Last) {
		g.Example, g.Last = r.FailureMessage, r.Time
	}
}
