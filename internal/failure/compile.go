package failure

import (
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/lazyre"
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
	re   func() *regexp.Regexp
}

// buildSignals is the table of broken-build signals, checked against
// recorded real output in testdata/gates. Each is specific to the tool's
// report of a build or load failure, so a test that merely mentions a
// SyntaxError in an assertion does not count.
var buildSignals = []buildSignal{
	{"go test", "failed]", lazyre.New(`(?m)^FAIL\s+\S+ \[(?:build|setup) failed\]\s*$`)},
	{"go build, vet", ".go:", lazyre.New(`(?m)^# \S+.*\n(?:# .*\n)*(?:vet: )?\S+\.go:\d+(?::\d+)?: `)},
	{"pytest", "ERROR collecting", lazyre.New(`(?m)^_+ ERROR collecting \S+ _+\s*$`)},
	{"python unittest", "Failed to import test module", lazyre.New(`(?m)^ImportError: Failed to import test module: `)},
	{"python", "File \"", lazyre.New(`(?m)^[ \t]*(?:E[ \t]+)?File "[^"]+", line \d+\n(?:.*\n){0,3}?[ \t]*(?:E[ \t]+)?(?:SyntaxError|IndentationError|TabError): `)},
	{"node", "SyntaxError: ", lazyre.New(`(?m)^(?:#[ \t]+)?SyntaxError: `)},
	{"node", "Cannot find module", lazyre.New(`(?m)^(?:#[ \t]+)?Error: Cannot find module '[^']+'`)},
	{"jest", "Test suite failed to run", lazyre.New(`(?m)^[ \t]*● Test suite failed to run\s*$`)},
	{"vitest", " [ ", lazyre.New(`(?m)^[ \t]*FAIL\s+\S+ \[ \S+ \]\s*\n[ \t]*\w*Error: .*(?:syntax|[Ff]ailed to (?:parse|load|resolve)|Cannot find|does not provide|Transform failed|Unexpected)`)},
	{"cargo", "could not compile", lazyre.New(`(?m)^error: could not compile `)},
	{"tsc", "error TS", lazyre.New(`\berror TS\d+: `)},
	{"javac, maven", "", lazyre.New(`(?m)^\S+\.java:\d+: error: |\bCOMPILATION ERROR\b`)},
}

// brokenBuild reports whether output shows the code did not compile or
// load, with the tool whose signal matched.
func brokenBuild(output string) (tool string, ok bool) {
	for _, s := range buildSignals {
		if strings.Contains(output, s.hint) && s.re().MatchString(output) {
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
