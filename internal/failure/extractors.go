package failure

import (
	"html"
	"regexp"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/lazyre"
)

// testExtractor finds the names of failing tests in one test runner's
// output. The table below holds one per runner and format; each is checked
// against recorded real output in testdata/gates.
type testExtractor struct {
	// tool names the runner and format, for tests and for reading.
	tool string
	// find returns the failing tests it sees, with their byte offsets.
	find func(out string) []testHit
	// fallback extractors are only used when no precise one found a name:
	// they read a shorter form of what a precise one reads in full (jest's
	// ✕ line against its "● suite › test" block, prove's numbers against
	// TAP's "not ok" lines), and using both would count a test twice.
	fallback bool
}

// testHit is a failing test found at byte offset at of the output.
type testHit struct {
	at   int
	name string
}

// testExtractors is the table of failing-test extractors, most precise
// first.
var testExtractors = []testExtractor{
	{tool: "go test", find: byGroup(lazyre.New(`(?m)^\s*--- FAIL: (\S+)`))},
	// go test -timeout: the alarm's panic lists the tests still running.
	{tool: "go test -timeout", find: goTimedOut},
	{tool: "pytest", find: byGroup(lazyre.New(`(?m)^(?:FAILED|ERROR) (\S+::\S+)`))},
	{tool: "python unittest", find: unittestFailures},
	{tool: "jest", find: jestBlocks},
	{tool: "vitest", find: byGroup(lazyre.New(`(?m)^\s*FAIL\s+(\S+ > .+?)\s*$`))},
	{tool: "node --test (spec)", find: byGroup(lazyre.New(`(?m)^\s*✖ (.+?) \(\d+(?:\.\d+)?m?s\)\s*$`))},
	{tool: "cargo test", find: byGroup(lazyre.New(`(?m)^test (\S+) \.\.\. FAILED\s*$`))},
	{tool: "TAP", find: tapNotOK},
	{tool: "JUnit XML", find: junitFailures},
	{tool: "jest, vitest (symbols)", find: symbolLines, fallback: true},
	{tool: "prove summary", find: proveSummary, fallback: true},
}

// byGroup finds every match of expr; its first group is the test's name.
func byGroup(re func() *regexp.Regexp) func(string) []testHit {
	return func(out string) []testHit {
		var hits []testHit
		for _, m := range re().FindAllStringSubmatchIndex(out, -1) {
			hits = append(hits, testHit{m[2], strings.TrimSpace(out[m[2]:m[3]])})
		}
		return hits
	}
}

var (
	goTimeoutRE    = lazyre.New(`(?m)^panic: test timed out after \S+\n\s*running tests:\n((?:[ \t]+\S+ \([^)\n]*\)\n?)+)`)
	goRunningTest  = lazyre.New(`(?m)^[ \t]+(\S+) \(`)
	jestBlockRE    = lazyre.New(`(?m)^[ \t]*● (.+?)\s*$`)
	symbolLineRE   = lazyre.New(`(?m)^\s*[✕×] (.+?)\s*$`)
	symbolTimingRE = lazyre.New(`\s+(?:\(\d+(?:\.\d+)?\s*m?s\)|\d+(?:\.\d+)?\s*m?s)$`)
	tapLineRE      = lazyre.New(`(?m)^([ \t]*)(not )?ok\b(?:\s+\d+)?(?:\s+-)?\s*(.*?)\s*$`)
	tapDirectiveRE = lazyre.New(`(?i)\s#\s*(?:todo|skip)\b`)
	tapFileRE      = lazyre.New(`^/\S+\.[cm]?[jt]sx?$`)
	junitCaseRE    = lazyre.New(`(?s)<testcase\b([^>]*?)(/?)>`)
	junitNameRE    = lazyre.New(`\bname="([^"]*)"`)
	junitFailRE    = lazyre.New(`<(?:failure|error)\b`)
	unittestRE     = lazyre.New(`(?m)^(?:FAIL|ERROR): (\S+) \(([^)\s]+)\)\s*$`)
	proveFileRE    = lazyre.New(`(?m)^(\S+) \(Wstat: [^)]*Failed: \d+\)\n\s+Failed tests?:\s+([\d, -]+)$`)
)

// goTimedOut reads the tests that were running when go test's -timeout
// alarm went off: "panic: test timed out after 1s / running tests: /
// TestWaitGivesUp (1s)".
func goTimedOut(out string) []testHit {
	var hits []testHit
	for _, m := range goTimeoutRE().FindAllStringSubmatchIndex(out, -1) {
		block := out[m[2]:m[3]]
		for _, n := range goRunningTest().FindAllStringSubmatchIndex(block, -1) {
			hits = append(hits, testHit{m[2] + n[2], block[n[2]:n[3]]})
		}
	}
	return hits
}

// unittestFailures reads Python unittest's "FAIL: test_add
// (tests.test_calc.TestCalc.test_add)" headings, naming the test by its
// dotted path. A test module that failed to import (unittest's _FailedTest)
// names no test.
func unittestFailures(out string) []testHit {
	var hits []testHit
	for _, m := range unittestRE().FindAllStringSubmatchIndex(out, -1) {
		full := out[m[4]:m[5]]
		if strings.HasPrefix(full, "unittest.loader._FailedTest") {
			continue
		}
		hits = append(hits, testHit{m[2], full})
	}
	return hits
}

// jestBlocks reads jest's failure headings, "● suite › test". The heading
// of a suite that could not run and that of captured console output name no
// test.
func jestBlocks(out string) []testHit {
	var hits []testHit
	for _, h := range byGroup(jestBlockRE)(out) {
		if h.name != "Test suite failed to run" && h.name != "Console" {
			hits = append(hits, h)
		}
	}
	return hits
}

// symbolLines reads jest's and vitest's per-test lines, "✕ adds (3 ms)" and
// "× adds 4ms", without their timing.
func symbolLines(out string) []testHit {
	hits := byGroup(symbolLineRE)(out)
	for i := range hits {
		hits[i].name = symbolTimingRE().ReplaceAllString(hits[i].name, "")
	}
	return hits
}

// tapNotOK reads TAP's "not ok N - name" lines, leaving out TODO and SKIP
// tests (expected to fail) and a parent whose subtests failed (indented
// "not ok" lines just before it): the subtest is the failure.
func tapNotOK(out string) []testHit {
	var hits []testHit
	var failedInside []int // indents of failed subtests not yet closed by a parent
	for _, m := range tapLineRE().FindAllStringSubmatchIndex(out, -1) {
		indent := m[3] - m[2]
		notOK := m[4] >= 0
		name := out[m[6]:m[7]]
		// A line at this indent closes the subtests deeper than it.
		hadFailedChild := false
		kept := failedInside[:0]
		for _, in := range failedInside {
			if in > indent {
				hadFailedChild = true
			} else {
				kept = append(kept, in)
			}
		}
		failedInside = kept
		if !notOK || tapDirectiveRE().MatchString(name) {
			continue
		}
		failedInside = append(failedInside, indent)
		if hadFailedChild || tapFileRE().MatchString(name) {
			// node --test names a file that failed as a whole (it did
			// not load, or exited non-zero) by its path: no test's name.
			continue
		}
		hits = append(hits, testHit{m[6], name})
	}
	return hits
}

// junitFailures reads JUnit XML: each <testcase> holding a <failure> or
// <error> before its end.
func junitFailures(out string) []testHit {
	var hits []testHit
	cases := junitCaseRE().FindAllStringSubmatchIndex(out, -1)
	for i, m := range cases {
		name := junitNameRE().FindStringSubmatch(out[m[2]:m[3]])
		if name == nil || m[4] < m[5] { // no name, or self-closing: passed
			continue
		}
		end := len(out)
		if i+1 < len(cases) {
			end = cases[i+1][0]
		}
		body := out[m[1]:end]
		if j := strings.Index(body, "</testcase>"); j >= 0 {
			body = body[:j]
		}
		if junitFailRE().MatchString(body) {
			hits = append(hits, testHit{m[0], html.UnescapeString(name[1])})
		}
	}
	return hits
}

// proveSummary reads prove's summary, "t/calc.t (Wstat: 0 Tests: 3 Failed:
// 1) / Failed test: 2", as "t/calc.t #2": without -v, prove prints no
// names.
func proveSummary(out string) []testHit {
	var hits []testHit
	for _, m := range proveFileRE().FindAllStringSubmatchIndex(out, -1) {
		file := out[m[2]:m[3]]
		for _, n := range strings.FieldsFunc(out[m[4]:m[5]], func(r rune) bool { return r == ',' || r == ' ' }) {
			hits = append(hits, testHit{m[0], file + " #" + n})
		}
	}
	return hits
}
