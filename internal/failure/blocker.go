package failure

import (
	"regexp"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/lazyre"
)

// errorStatementREs match a line that states an error the way compilers
// and runtimes do: the line a person reads as "the error", as opposed to a
// banner, a summary or a stack frame. The table is checked against
// recorded real output in testdata/gates.
var errorStatementREs = []func() *regexp.Regexp{
	lazyre.New(`^(?:vet: )?\S+\.go:\d+(?::\d+)?: \S`),                         // go build, vet
	lazyre.New(`^\S+\(\d+,\d+\): error TS\d+: |^\S+:\d+:\d+ - error TS\d+: `), // tsc
	lazyre.New(`^\S+\.java:\d+: error: `),                                     // javac
	lazyre.New(`^error(?:\[E\d+\])?: \w`),                                     // rustc, cargo
	lazyre.New(`^panic: `),                                                    // go
	// Python and JavaScript: "SyntaxError: expected ':'", "E   ModuleNotFoundError: …",
	// "# Error: Cannot find module './calc'", "AssertionError [ERR_ASSERTION]: …".
	lazyre.New(`^(?:E\s+|#\s+)?(?:[A-Z]\w*(?:Error|Exception)|Error)(?: \[\w+\])?: \S`),
}

// wrapperREs match error statements that only announce the real error
// printed below them: the first error statement after one is the blocker.
var wrapperREs = []func() *regexp.Regexp{
	lazyre.New(`^ImportError: Failed to import test module: `), // python unittest
}

// locators find where an error line points, in the lines around it. Each
// has one or two groups: the file and, if separate, the line.
var (
	pyFrameRE    = lazyre.New(`^(?:E\s+)?File "([^"]+)", line (\d+)`) // traceback, SyntaxError
	pytestLocRE  = lazyre.New(`^(\S+\.py):(\d+): `)                   // pytest's "tests/x.py:1: in <module>"
	nodeHeaderRE = lazyre.New(`^(?:#\s+)?(\S+\.[cm]?[jt]sx?):(\d+)$`) // node's SyntaxError header
	nodeFrameRE  = lazyre.New(`^(?:#\s+)?at (?:.* \()?(/[^()\s]+:\d+:\d+)\)?$`)
	rustArrowRE  = lazyre.New(`^--> (\S+:\d+(?::\d+)?)$`)
	viteFileRE   = lazyre.New(`^File: (\S+:\d+(?::\d+)?)$`)
	hasLocRE     = lazyre.New(`\S\.\w+[:(]\d+`)
)

// noiseREs match lines that are never what a failure is blocked on, even
// when they say "error": banners ("==== ERRORS ====", "____ ERROR
// collecting x ____", "⎯⎯ Failed Tests 1 ⎯⎯"), run headers and counts.
var noiseREs = []func() *regexp.Regexp{
	lazyre.New(`^[=_\-!*~#+⎯─━]{3,}.*[=_\-!*~#+⎯─━]{3,}$`),
	lazyre.New(`^[=_\-!*~#+⎯─━\s]+$`),
	lazyre.New(`^collected \d+ items?(?: / \d+ errors?)?$`),
	lazyre.New(`^(?:platform linux|rootdir:|cachedir:|plugins:)`),
	lazyre.New(`^FAIL$`),
	lazyre.New(`^npm (?:warn|WARN|notice)\b`),
}

// isNoise reports whether a trimmed line is a banner or a header.
func isNoise(line string) bool { return matchesAny(noiseREs, line) }

func matchesAny(res []func() *regexp.Regexp, s string) bool {
	for _, re := range res {
		if re().MatchString(s) {
			return true
		}
	}
	return false
}

// blockerLine returns what a failed gate's output is blocked on: its first
// error statement, with the file and line it points at when the output
// says so nearby; else its first line that looks like an error and is no
// banner; else its last line.
func blockerLine(output string) string {
	if l := firstErrorStatement(output); l != "" {
		return l
	}
	return firstErrorLine(output)
}

// firstErrorStatement returns the first error statement of output, located
// ("tests/test_calc.py:4: SyntaxError: expected ':'"), or "".
func firstErrorStatement(output string) string {
	lines := nonEmptyLines(clean(output))
	for i, l := range lines {
		if matchesAny(wrapperREs, l) {
			continue
		}
		for _, re := range errorStatementREs {
			if re().MatchString(l) {
				return shorten(locate(lines, i))
			}
		}
	}
	return ""
}

// locate prefixes the error statement lines[i] with the place the lines
// around it name, unless it names one itself.
func locate(lines []string, i int) string {
	l := lines[i]
	stmt := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(l, "#"), "E "))
	if hasLocRE().MatchString(stmt) {
		return stmt
	}
	at := func(m []string) string {
		if len(m) == 3 {
			return m[1] + ":" + m[2] + ": " + stmt
		}
		return m[1] + ": " + stmt
	}
	// Python and node print the place before the error.
	for j := i - 1; j >= 0 && j >= i-8; j-- {
		for _, re := range []func() *regexp.Regexp{pyFrameRE, pytestLocRE, nodeHeaderRE} {
			if m := re().FindStringSubmatch(lines[j]); m != nil {
				return at(m)
			}
		}
	}
	// rustc, vite and node's stack print it after.
	for j := i + 1; j < len(lines) && j <= i+12; j++ {
		if m := rustArrowRE().FindStringSubmatch(lines[j]); m != nil && j <= i+2 {
			return at(m)
		}
		if m := viteFileRE().FindStringSubmatch(lines[j]); m != nil && j <= i+4 {
			return at(m)
		}
		if m := nodeFrameRE().FindStringSubmatch(lines[j]); m != nil && !strings.Contains(m[1], "/node_modules/") {
			return at(m)
		}
	}
	return stmt
}

// panicRE matches a test runner's panic line: a Go panic or -timeout
// alarm.
var panicRE = lazyre.New(`(?m)^panic: (.+?)\s*$`)

// panicNote is " (panic: test timed out after 1s)" when the failing tests'
// output ends in a panic, which says more than the tests' names; else "".
func panicNote(output string) string {
	if m := panicRE().FindStringSubmatch(clean(output)); m != nil {
		return " (panic: " + m[1] + ")"
	}
	return ""
}

// relativeTo names the paths under dir in s relative to it: the error line
// of a tool that prints absolute paths reads as the user's file.
func relativeTo(dir, s string) string {
	if dir == "" {
		return s
	}
	return strings.ReplaceAll(s, strings.TrimSuffix(dir, "/")+"/", "")
}
