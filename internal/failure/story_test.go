package failure

import (
	"strings"
	"testing"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/stretchr/testify/require"
)

// TestZeroExitWithoutChange checks the zero exit that changed nothing: the
// agent's claim of success, which the gate disagrees with.
func TestZeroExitWithoutChange(t *testing.T) {
	t.Parallel()
	c := newClassifier(t)
	goFail := "--- FAIL: TestAdd (0.00s)\nFAIL\n"
	tests := []struct {
		name    string
		ev      Evidence
		typ     failreport.Type
		message string
	}{
		{"ran, exit 0, nothing changed", Evidence{AgentRan: true, Gate: testGate(goFail)},
			failreport.VerificationMismatch, "the agent exited 0 without changing any file, but test gate failed: 1 test failing (TestAdd)"},
		{"ran, exit 0, changed a file: the gate says what is wrong with the work", Evidence{AgentRan: true,
			FilesChanged: []string{"calc.go"}, Gate: testGate(goFail)}, failreport.TestFailure, "test gate failed: 1 test failing (TestAdd)"},
		{"a broken build without change", Evidence{AgentRan: true, Gate: testGate("# x\n./a_test.go:3:2: undefined: Add\nFAIL\tx [build failed]\n")},
			failreport.VerificationMismatch, "the agent exited 0 without changing any file, but test gate failed: the code does not compile, so no test ran"},
		{"the agent did not run (a declared gate's tool is missing)", Evidence{Gate: &GateEvidence{Kind: "test",
			Command: "pytest", ExitCode: 127, Declared: true, Output: "pytest: not found"}}, failreport.DependencyMissing, "pytest not found (exit 127)"},
		{"an explicit failed result is no claim", Evidence{AgentRan: true, ResultFound: true, ResultStatus: "failed",
			Gate: testGate(goFail)}, failreport.TestFailure, "test gate failed: 1 test failing (TestAdd)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := c.Classify(tt.ev)
			require.Equal(t, tt.typ, r.Type, r.Message)
			require.Equal(t, tt.message, r.Message)
			if tt.typ == failreport.VerificationMismatch {
				require.Contains(t, r.Details, "exited 0, claiming the phase done, but changed no file")
				require.Contains(t, FormatReport(r), "Files changed: none")
			}
		})
	}

	r := c.Classify(Evidence{AgentRan: true, ResultFound: true, ResultStatus: "complete", Gate: testGate(goFail)})
	require.Equal(t, failreport.VerificationMismatch, r.Type)
	require.Equal(t, "the engine's own run of `go test ./...` failed (exit 1) after the agent claimed success; the agent changed no file", r.Details)
}

// TestBrokenBuildInAnyGate checks that a compile error is typecheck_error
// whichever gate printed it, with the guidance of a broken build.
func TestBrokenBuildInAnyGate(t *testing.T) {
	t.Parallel()
	c := newClassifier(t)
	out := "# example.com/calc [example.com/calc.test]\n./calc_test.go:6:12: undefined: Add\nFAIL\texample.com/calc [build failed]\nFAIL\n"
	for _, kind := range []string{"test", "lint", "format", "build"} {
		r := c.Classify(Evidence{AgentRan: true, FilesChanged: []string{"calc_test.go"},
			Gate: &GateEvidence{Kind: kind, Command: "go test ./...", ExitCode: 1, Output: out}})
		require.Equal(t, failreport.TypecheckError, r.Type, kind)
		require.Equal(t, "./calc_test.go:6:12: undefined: Add", r.BlockedOn, kind)
		require.Contains(t, r.SuggestedActions[0], "run the build or type check and fix the errors: go test ./...", kind)
	}
	// A test that only mentions a SyntaxError in its assertion is a failing test.
	r := c.Classify(Evidence{AgentRan: true, FilesChanged: []string{"p.py"}, Gate: testGate(
		"FAILED tests/test_p.py::test_rejects - AssertionError: expected SyntaxError: bad input\n=== 1 failed ===\n")})
	require.Equal(t, failreport.TestFailure, r.Type)
}

func TestBlockerLine(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, out, want string }{
		{"banner skipped", "==== ERRORS ====\n____ ERROR collecting x.py ____\nboom: it failed\n", "boom: it failed"},
		{"pytest counts skipped", "collected 0 items / 1 error\n\nsomething failed here\n", "something failed here"},
		{"python traceback located", "Traceback (most recent call last):\n  File \"a.py\", line 9, in <module>\n    f()\n  File \"b.py\", line 2, in f\n    1/0\nZeroDivisionError: division by zero\n",
			"b.py:2: ZeroDivisionError: division by zero"},
		{"wrapper skipped", "ImportError: Failed to import test module: t\n  File \"t.py\", line 3\nSyntaxError: bad\n", "t.py:3: SyntaxError: bad"},
		{"a statement that names its place", "x\n./a.go:3:1: undefined: y\n", "./a.go:3:1: undefined: y"},
		{"no statement: first error-looking line", "Found 2 errors.\nx.py:1:1: F401 unused\n", "Found 2 errors."},
		{"nothing: last line", "all\nquiet\n", "quiet"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, blockerLine(tt.out), tt.name)
	}
}

func TestTAPExtractor(t *testing.T) {
	t.Parallel()
	out := "TAP version 13\nok 1 - a\nnot ok 2 - b\nnot ok 3 - c # TODO later\nnot ok 4 - d # skip no db\n" +
		"# Subtest: suite\n    not ok 1 - inner\n    ok 2 - fine\nnot ok 5 - suite\nnot ok 6 - /abs/file.test.js\nnot ok 7 - e\n"
	require.Equal(t, []string{"b", "inner", "e"}, FailingTests(out))
}

func TestJUnitExtractor(t *testing.T) {
	t.Parallel()
	out := `<testsuite><testcase name="passes" classname="a"/>` +
		`<testcase classname="a" name="fails &amp; more"><failure message="x"/></testcase>` +
		`<testcase name="skipped"><skipped/></testcase><testcase name="errs"><error message="y">boom</error></testcase></testsuite>`
	require.Equal(t, []string{"fails & more", "errs"}, FailingTests(out))
}

func TestBrokenAgentInstallNeedsTheAgentsOwnModule(t *testing.T) {
	t.Parallel()
	// A require stack means some script required the module: not the
	// agent's own program missing, unless the stack is the agent's.
	stack := "Error: Cannot find module 'left-pad'\nRequire stack:\n- /srv/app/index.js\n    at x (node:internal)\n{\n  code: 'MODULE_NOT_FOUND',\n  requireStack: [ '/srv/app/index.js' ]\n}\n"
	_, _, ok := brokenAgentInstall(stack, "claude -p")
	require.False(t, ok)
	inCLI := "Error: Cannot find module 'yoga-wasm-web'\nRequire stack:\n- /usr/lib/node_modules/@anthropic-ai/claude-code/cli.js\n  code: 'MODULE_NOT_FOUND',\n  requireStack: [ '/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js' ]\n}\n"
	_, cli, ok := brokenAgentInstall(inCLI, "claude -p")
	require.True(t, ok)
	require.Equal(t, "claude", cli.program)
	// A script agent whose last step ran some other missing program.
	main := "Error: Cannot find module '/repo/dist/server.js'\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)\n{\n  code: 'MODULE_NOT_FOUND',\n  requireStack: []\n}\n"
	_, _, ok = brokenAgentInstall(main, "./agent.sh")
	require.False(t, ok, "not the agent's program")
	_, cli, ok = brokenAgentInstall(main, "node /repo/dist/server.js")
	require.True(t, ok, "the program the agent command runs")
	require.Nil(t, cli)
	_, _, ok = brokenAgentInstall(strings.ReplaceAll(main, "/repo/dist/server.js", "/usr/lib/node_modules/mycli/bin/run.js"), "mycli --yes")
	require.True(t, ok, "a file of the agent's own npm package")
	_, _, ok = brokenAgentInstall("ModuleNotFoundError: No module named 'requests'\n", "aider --yes")
	require.False(t, ok)
	line, cli, ok := brokenAgentInstall("Traceback (most recent call last):\n  File \"/opt/bin/my-agent\", line 3, in <module>\n    import myagent\nModuleNotFoundError: No module named 'myagent'\n", "my-agent run")
	require.True(t, ok, "the traceback starts in the agent's own launcher")
	require.Nil(t, cli)
	require.Equal(t, "ModuleNotFoundError: No module named 'myagent'", line)
	r := newClassifier(t).Classify(Evidence{AgentRan: true, AgentExitCode: 1, AgentCommand: "my-agent run",
		AgentOutput: "Traceback (most recent call last):\n  File \"/opt/bin/my-agent\", line 3, in <module>\n    import myagent\nModuleNotFoundError: No module named 'myagent'\n"})
	require.Equal(t, failreport.AgentSetup, r.Type)
	require.Equal(t, "reinstall the agent CLI (`my-agent run`), then check that it starts", r.SuggestedActions[0])
}

func TestZeroExitWithoutChangeIsSaidInTheActions(t *testing.T) {
	t.Parallel()
	r := newClassifier(t).Classify(Evidence{AgentRan: true, Gate: testGate("--- FAIL: TestAdd (0.00s)\n")})
	require.Contains(t, r.SuggestedActions, "the agent changed no file: check in the attempt log that it got the task and worked in the phase's worktree")
}

func TestReportNamesWorktreePathsRelative(t *testing.T) {
	t.Parallel()
	out := "==== ERRORS ====\n____ ERROR collecting tests/test_calc.py ____\n" +
		"E     File \"/w/.autobuild/worktrees/phase-1/tests/test_calc.py\", line 4\nE       def test_add()\nE   SyntaxError: expected ':'\n"
	r := newClassifier(t).Classify(Evidence{AgentRan: true, FilesChanged: []string{"tests/test_calc.py"},
		Worktree: "/w/.autobuild/worktrees/phase-1", Gate: testGate(out)})
	require.Equal(t, failreport.TypecheckError, r.Type)
	require.Equal(t, "tests/test_calc.py:4: SyntaxError: expected ':'", r.BlockedOn)
	require.Equal(t, "test gate failed: the code does not compile, so no test ran: tests/test_calc.py:4: SyntaxError: expected ':'", r.Message)
}
