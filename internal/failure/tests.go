package failure

import "strings"

// FailingTests returns the names of the failing tests that output reports,
// in order of appearance, without duplicates. A Go test whose subtests
// failed is left out when a failing subtest is listed: the subtest is the
// failure, and counting both would double it.
func FailingTests(output string) []string {
	output = clean(output)
	var hits []testHit
	for _, pass := range []bool{false, true} {
		if pass && len(hits) > 0 {
			break
		}
		for _, x := range testExtractors {
			if x.fallback == pass {
				hits = append(hits, x.find(output)...)
			}
		}
	}
	// Order by position in the output, whichever runner printed it.
	for i := 1; i < len(hits); i++ {
		for j := i; j > 0 && hits[j].at < hits[j-1].at; j-- {
			hits[j], hits[j-1] = hits[j-1], hits[j]
		}
	}
	seen := map[string]bool{}
	var names []string
	for _, h := range hits {
		if h.name != "" && !seen[h.name] {
			seen[h.name] = true
			names = append(names, h.name)
		}
	}
	out := names[:0]
	for _, n := range names {
		parent := false
		for _, m := range names {
			if strings.HasPrefix(m, n+"/") {
				parent = true
				break
			}
		}
		if !parent {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
