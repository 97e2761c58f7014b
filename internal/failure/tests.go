package failure

import (
	"regexp"
	"strings"
)

// failingTestREs find the names of failing tests in test runners' output.
// Each has one capture group: the test's name.
var failingTestREs = []*regexp.Regexp{
	regexp.MustCompile(`(?m)^\s*--- FAIL: (\S+)`),                               // go test
	regexp.MustCompile(`(?m)^FAILED (\S+::\S+)`),                                // pytest
	regexp.MustCompile(`(?m)^\s*[✕×] (.+?)(?:\s+\(\d+(?:\.\d+)?\s*m?s\))?\s*$`), // jest, vitest
	regexp.MustCompile(`(?m)^test (\S+) \.\.\. FAILED\s*$`),                     // cargo test
}

// FailingTests returns the names of the failing tests that output reports,
// in order of appearance, without duplicates. A Go test whose subtests
// failed is left out when a failing subtest is listed: the subtest is the
// failure, and counting both would double it.
func FailingTests(output string) []string {
	output = clean(output)
	type hit struct {
		at   int
		name string
	}
	var hits []hit
	for _, re := range failingTestREs {
		for _, m := range re.FindAllStringSubmatchIndex(output, -1) {
			hits = append(hits, hit{m[2], strings.TrimSpace(output[m[2]:m[3]])})
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
