package failure

import (
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"regexp"
	"strings"
)

// buildSignal is output that says the code did not compile or load, so the
// gate's own checks never ran: a test gate that prints it has a broken
// build, not failing tests.
type buildSignal struct {
	// tool names the tool that prints it, for tests and for reading.
	tool string
	// hint is text every match holds: a cheap test that skips the regular
	// expression on most outputs.
	hint string
	re   *regexp.Regexp
}

// buildSignals is the table of broken-build signals, checked against
// recorded real output in testdata/gates. Each is specific to the tool's
// report of a build or load failure, so a test that merely mentions a
// SyntaxError in an assertion does not count.
var buildSignals = []buildSignal{
	{"go test", "failed]", regexp.MustCompile(`(?m)^FAIL\s+\S+ \[(?:build|setup) failed\]\s*$`)},
	{"go build, vet", ".go:", regexp.MustCompile(`(?m)^# \S+.*\n(?:# .*\n)*(?:vet: )?\S+\.go:\d+(?::\d+)?: `)},
	{"pytest", "ERROR collecting", regexp.MustCompile(`(?m)^_+ ERROR collecting \S+ _+\s*$`)},
	{"python unittest", "Failed to import test module", regexp.MustCompile(`(?m)^ImportError: Failed to import test module: `)},
	{"python", "File \"", regexp.MustCompile(`(?m)^[ \t]*(?:E[ \t]+)?File "[^"]+", line \d+\n(?:.*\n){0,3}?[ \t]*(?:E[ \t]+)?(?:SyntaxError|IndentationError|TabError): `)},
	{"node", "SyntaxError: ", regexp.MustCompile(`(?m)^(?:#[ \t]+)?SyntaxError: `)},
	{"node", "Cannot find module", regexp.MustCompile(`(?m)^(?:#[ \t]+)?Error: Cannot find module '[^']+'`)},
	{"jest", "Test suite failed to run", regexp.MustCompile(`(?m)^[ \t]*● Test suite failed to run\s*$`)},
	{"vitest", " [ ", regexp.MustCompile(`(?m)^[ \t]*FAIL\s+\S+ \[ \S+ \]\s*\n[ \t]*\w*Error: .*(?:syntax|[Ff]ailed to (?:parse|load|resolve)|Cannot find|does not provide|Transform failed|Unexpected)`)},
	{"cargo", "could not compile", regexp.MustCompile(`(?m)^error: could not compile `)},
	{"tsc", "error TS", regexp.MustCompile(`\berror TS\d+: `)},
	{"javac, maven", "", regexp.MustCompile(`(?m)^\S+\.java:\d+: error: |\bCOMPILATION ERROR\b`)},
}

// brokenBuild reports whether output shows the code did not compile or
// load, with the tool whose signal matched.
func brokenBuild(output string) (tool string, ok bool) {
	for _, s := range buildSignals {
		if strings.Contains(output, s.hint) && s.re.MatchString(output) {
			return s.tool, true
		}
	}
	return "", false
}

// brokenBuildSummary is "test gate failed: the code does not compile, so no
// test ran"; a gate whose job is the build keeps its plain summary.
func brokenBuildSummary(kind string, g *GateEvidence, failing []string) string {
	switch gateType(kind) {
	case failreport.TypecheckError:
		return gateSummary(kind, g, failing)
	case failreport.TestFailure:
		return kind + " gate failed: the code does not compile, so no test ran"
	}
	return kind + " gate failed: the code does not compile"
}
