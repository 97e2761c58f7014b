package failure

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/stretchr/testify/require"
)

// recorded is a real output recorded by testdata/gates/record.sh, with the
// command that printed it.
type recorded struct {
	output, command string
	exit            int
}

func loadRecorded(t testing.TB, name string) recorded {
	t.Helper()
	out, err := os.ReadFile(filepath.Join("testdata", "gates", name+".out"))
	require.NoError(t, err)
	meta, err := os.ReadFile(filepath.Join("testdata", "gates", name+".cmd"))
	require.NoError(t, err)
	r := recorded{output: string(out)}
	for _, l := range strings.Split(string(meta), "\n") {
		switch k, v, _ := strings.Cut(l, ": "); k {
		case "command":
			r.command = v
		case "exit":
			r.exit, err = strconv.Atoi(v)
			require.NoError(t, err)
		}
	}
	require.NotEmpty(t, r.command, "%s.cmd names the command", name)
	return r
}

// recordedGates is what a person reads in each recorded gate output: the
// type, the failing tests, the broken-build signal and what it is blocked
// on. Every recording in testdata/gates has a row here or in
// recordedAgents.
var recordedGates = []struct {
	name, kind string
	typ        failreport.Type
	tests      []string
	build      string // the buildSignals row that matches first, "" for none
	blocked    string
}{
	{"go/compile_undefined", "test", failreport.TypecheckError, nil, "go test", "./calc_test.go:6:12: undefined: Add"},
	{"go/test_build_undefined", "test", failreport.TypecheckError, nil, "go test", "./calc.go:4:33: undefined: Add"},
	{"go/build_undefined", "build", failreport.TypecheckError, nil, "go build, vet", "./calc.go:4:33: undefined: Add"},
	{"go/vet_undefined", "lint", failreport.TypecheckError, nil, "go build, vet", "vet: ./calc.go:4:33: undefined: Add"},
	{"go/fail", "test", failreport.TestFailure, []string{"TestAdd", "TestTable/two"}, "", "failing tests: TestAdd, TestTable/two"},
	{"go/panic", "test", failreport.TestFailure, []string{"TestPut"}, "",
		"failing tests: TestPut (panic: assignment to entry in nil map [recovered, repanicked])"},
	{"go/timeout", "test", failreport.TestFailure, []string{"TestWaitGivesUp"}, "", "failing tests: TestWaitGivesUp (panic: test timed out after 1s)"},
	{"pytest/syntax_error", "test", failreport.TypecheckError, nil, "pytest",
		"/tmp/autobuild-gate-record/py-syntax/tests/test_calc.py:4: SyntaxError: expected ':'"},
	{"pytest/import_error", "test", failreport.TypecheckError, nil, "pytest", "tests/test_calc.py:1: ModuleNotFoundError: No module named 'calc'"},
	{"pytest/fail", "test", failreport.TestFailure, []string{"tests/test_calc.py::test_add", "tests/test_calc.py::TestCalc::test_param[1-1-2]"}, "",
		"failing tests: tests/test_calc.py::test_add, tests/test_calc.py::TestCalc::test_param[1-1-2]"},
	{"python/unittest_syntax_error", "test", failreport.TypecheckError, nil, "python unittest",
		"/tmp/autobuild-gate-record/py-syntax/tests/test_calc.py:4: SyntaxError: expected ':'"},
	{"python/unittest_fail", "test", failreport.TestFailure, []string{"tests.test_calc.TestCalc.test_type", "tests.test_calc.TestCalc.test_add"}, "",
		"failing tests: tests.test_calc.TestCalc.test_type, tests.test_calc.TestCalc.test_add"},
	{"node/fail_tap", "test", failreport.TestFailure, []string{"adds numbers"}, "", "failing tests: adds numbers"},
	{"node/fail_spec", "test", failreport.TestFailure, []string{"adds numbers"}, "", "failing tests: adds numbers"},
	{"node/syntax_error", "test", failreport.TypecheckError, nil, "node",
		"/tmp/autobuild-gate-record/node-syntax/calc.test.js:5: SyntaxError: Unexpected token '{'"},
	{"node/missing_module", "test", failreport.TypecheckError, nil, "node",
		"/tmp/autobuild-gate-record/node-missing/calc.test.js:2:17: Error: Cannot find module './calc'"},
	{"jest/fail", "test", failreport.TestFailure, []string{"calc › adds numbers"}, "", "failing tests: calc › adds numbers"},
	{"jest/syntax_error", "test", failreport.TypecheckError, nil, "jest",
		`SyntaxError: /tmp/autobuild-gate-record/jest-syntax/calc.test.js: Unexpected token, expected "," (4:26)`},
	{"vitest/fail", "test", failreport.TestFailure, []string{"calc.test.mjs > calc > adds numbers"}, "", "failing tests: calc.test.mjs > calc > adds numbers"},
	{"vitest/syntax_error", "test", failreport.TypecheckError, nil, "vitest",
		"/tmp/autobuild-gate-record/vitest-syntax/calc.test.mjs:1:0: Error: Failed to parse source for import analysis because the content contains invalid JS syntax. If you are using JSX, make sure to name t…"},
	{"cargo/fail", "test", failreport.TestFailure, []string{"tests::adds", "tests::panics"}, "", "failing tests: tests::adds, tests::panics"},
	{"cargo/compile_error", "test", failreport.TypecheckError, nil, "cargo", "src/lib.rs:11:20: error[E0425]: cannot find function `add` in this scope"},
	{"cargo/clippy_deny_warnings", "lint", failreport.LintError, nil, "cargo", "src/lib.rs:2:5: error: unneeded `return` statement"},
	{"pytest/missing_package", "test", failreport.DependencyMissing, nil, "pytest", "httpx is not installed"},
	{"node/missing_package", "test", failreport.DependencyMissing, nil, "node", "left-pad is not installed"},
	{"tap/prove", "test", failreport.TestFailure, []string{"t/calc.t #2"}, "", "failing tests: t/calc.t #2"},
	{"tap/prove_verbose", "test", failreport.TestFailure, []string{"subtracts"}, "", "failing tests: subtracts"},
	{"junit/node_fail", "test", failreport.TestFailure, []string{"adds numbers"}, "", "failing tests: adds numbers"},
	{"junit/pytest_fail", "test", failreport.TestFailure, []string{"test_add", "test_param[1-1-2]"}, "", "failing tests: test_add, test_param[1-1-2]"},
	{"tsc/type_error", "typecheck", failreport.TypecheckError, nil, "tsc",
		"calc.ts(5,36): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'."},
	{"javac/cannot_find_symbol", "build", failreport.TypecheckError, nil, "javac, maven", "Calc.java:3: error: cannot find symbol"},
}

// TestRecordedGateOutputs classifies each recorded gate output as the gate
// of its row, run after an agent that exited 0 having changed a file.
func TestRecordedGateOutputs(t *testing.T) {
	t.Parallel()
	c := newClassifier(t)
	for _, row := range recordedGates {
		t.Run(row.name, func(t *testing.T) {
			t.Parallel()
			rec := loadRecorded(t, row.name)
			require.Equal(t, row.tests, FailingTests(rec.output), "failing tests")
			tool, _ := brokenBuild(clean(rec.output))
			require.Equal(t, row.build, tool, "broken-build signal")
			r := c.Classify(Evidence{AgentRan: true, FilesChanged: []string{"calc.go"},
				Gate: &GateEvidence{Kind: row.kind, Command: rec.command, ExitCode: rec.exit, Output: rec.output}})
			require.Equal(t, row.typ, r.Type, "message: %s", r.Message)
			require.Equal(t, row.blocked, r.BlockedOn)
			require.Equal(t, row.tests, r.FailingTests)
		})
	}
}

// recordedAgents are recorded outputs of an agent process itself.
var recordedAgents = []struct {
	name, command string // command "" is the recorded one
	typ           failreport.Type
	fix           string
}{
	{"agent/node_missing_claude", "", failreport.AgentSetup, "reinstall claude: npm install -g @anthropic-ai/claude-code"},
	{"agent/node_missing_codex", "", failreport.AgentSetup, "reinstall codex: npm install -g @openai/codex"},
	{"agent/node_missing_gemini", "", failreport.AgentSetup, "reinstall gemini: npm install -g @google/gemini-cli"},
	{"agent/node_missing_qwen", "", failreport.AgentSetup, "reinstall qwen: npm install -g @qwen-code/qwen-code"},
	{"agent/node_missing_copilot", "", failreport.AgentSetup, "reinstall copilot: npm install -g @github/copilot"},
	{"agent/node_missing_pi", "", failreport.AgentSetup, "reinstall pi: npm install -g @mariozechner/pi-coding-agent"},
	{"agent/node_missing_claude-code-acp", "", failreport.AgentSetup, "reinstall claude-code-acp: npm install -g @zed-industries/claude-code-acp"},
	{"agent/python_missing_aider", "", failreport.AgentSetup, "reinstall aider: pipx reinstall aider-chat (or: pip install --force-reinstall aider-chat)"},
	{"agent/python_m_aider_chat", "", failreport.AgentSetup, "reinstall aider: pipx reinstall aider-chat (or: pip install --force-reinstall aider-chat)"},
	// The launcher that npm writes runs node on the package's file, under
	// the CLI's own name.
	{"agent/node_missing_claude", "claude -p --output-format json", failreport.AgentSetup, "reinstall claude: npm install -g @anthropic-ai/claude-code"},
	// A module missing for the project, in a test the agent ran and
	// quoted as its last words, is not the agent's installation.
	{"node/missing_module", "claude -p", failreport.TypecheckError, ""},
	{"pytest/import_error", "aider --yes-always", failreport.TypecheckError, ""},
}

func TestRecordedAgentOutputs(t *testing.T) {
	t.Parallel()
	c := newClassifier(t)
	for _, row := range recordedAgents {
		t.Run(row.name+" "+row.command, func(t *testing.T) {
			t.Parallel()
			rec := loadRecorded(t, row.name)
			cmd := row.command
			if cmd == "" {
				cmd = rec.command
			}
			r := c.Classify(Evidence{AgentRan: true, AgentExitCode: max(rec.exit, 1), AgentCommand: cmd, AgentOutput: rec.output})
			require.Equal(t, row.typ, r.Type, "message: %s", r.Message)
			require.Equal(t, row.fix, r.Fix)
			if row.typ == failreport.AgentSetup {
				require.False(t, r.Retryable)
				require.Equal(t, row.fix, r.SuggestedActions[0])
				require.Contains(t, r.Message, "cannot start: its installation is broken")
			}
		})
	}
}

// TestEveryRecordingHasARow keeps the tables and the recordings in step: a
// new recording needs the reading a person gives it.
func TestEveryRecordingHasARow(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "gates", "*", "*.out"))
	require.NoError(t, err)
	rows := map[string]bool{}
	for _, r := range recordedGates {
		rows[r.name] = true
	}
	for _, r := range recordedAgents {
		rows[r.name] = true
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.ToSlash(strings.TrimPrefix(f, filepath.Join("testdata", "gates")+string(filepath.Separator))), ".out")
		require.True(t, rows[name], "recording %s has no row", name)
		loadRecorded(t, name)
	}
}

// TestEveryTableRowIsRecorded checks each row of the extractor and
// broken-build tables against the recordings: each finds something in at
// least one real output, so none is written from memory alone.
func TestEveryTableRowIsRecorded(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "gates", "*", "*.out"))
	require.NoError(t, err)
	var outputs []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		outputs = append(outputs, clean(string(b)))
	}
	found := func(test func(string) bool) bool {
		for _, o := range outputs {
			if test(o) {
				return true
			}
		}
		return false
	}
	for _, x := range testExtractors {
		require.True(t, found(func(o string) bool { return len(x.find(o)) > 0 }), "extractor %q finds nothing in the recordings", x.tool)
	}
	for _, s := range buildSignals {
		require.True(t, found(func(o string) bool { return strings.Contains(o, s.hint) && s.re().MatchString(o) }),
			"build signal %q (%s, hint %q) matches no recording", s.tool, s.re(), s.hint)
	}
	for _, re := range errorStatementREs {
		require.True(t, found(func(o string) bool {
			for _, l := range nonEmptyLines(o) {
				if re().MatchString(l) {
					return true
				}
			}
			return false
		}), "error statement %s matches no recording", re())
	}
	for _, re := range []*regexp.Regexp{pyFrameRE(), pytestLocRE(), nodeHeaderRE(), nodeFrameRE(), rustArrowRE(), viteFileRE()} {
		require.True(t, found(func(o string) bool {
			for _, l := range nonEmptyLines(o) {
				if re.MatchString(l) {
					return true
				}
			}
			return false
		}), "locator %s matches no recording", re)
	}
}
