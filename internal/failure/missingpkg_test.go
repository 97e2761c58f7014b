package failure

import (
	"testing"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/stretchr/testify/require"
)

// TestFindMissingPackage: a package, not a file of the project, is what a
// missing module must be to make the failure dependency_missing.
func TestFindMissingPackage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, output string
		changed      []string
		want         string // "" for a file of the project (or nothing missing)
	}{
		{"python package", "client.py:1: in <module>\n    import httpx\nE   ModuleNotFoundError: No module named 'httpx'", nil, "httpx"},
		{"python dotted package", "E   ModuleNotFoundError: No module named 'google.protobuf'", nil, "google"},
		{"python project module named by its test", "tests/test_calc.py:1: in <module>\n    from calc import add\nE   ModuleNotFoundError: No module named 'calc'", nil, ""},
		{"python project package in a path", "app/views.py:3: in <module>\nE   ModuleNotFoundError: No module named 'app.models'", nil, ""},
		{"python module the attempt wrote", "E   ModuleNotFoundError: No module named 'store'", []string{"src/store.py"}, ""},
		{"node package", "# Error: Cannot find module 'left-pad'\n# Require stack:", nil, "left-pad"},
		{"node scoped package subpath", "Error: Cannot find module '@acme/ui/button'", nil, "@acme/ui"},
		{"node ESM package", "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod' imported from /w/src/a.mjs", nil, "zod"},
		{"jest package", "Cannot find module 'lodash' from 'src/sum.test.js'", nil, "lodash"},
		{"vite package", `Error: Failed to resolve import "dayjs" from "src/date.ts". Does the file exist?`, nil, "dayjs"},
		{"node relative file", "Error: Cannot find module './calc'", nil, ""},
		{"node absolute file", "Error: Cannot find module '/w/src/calc.js' imported from /w/src/a.mjs", nil, ""},
		{"path alias", "Cannot find module '@/components/Card' from 'src/App.test.tsx'", nil, ""},
		{"nothing missing", "--- FAIL: TestAdd", nil, ""},
	} {
		got, ok := findMissingPackage(c.output, c.changed)
		require.Equal(t, c.want != "", ok, c.name)
		require.Equal(t, c.want, got.name, c.name)
	}
}

// TestLintGateCompileErrorStaysTypecheck: under a lint gate, clippy's lints
// made errors are lint_error, but a compile error (error[E…]) is still
// typecheck_error.
func TestLintGateCompileErrorStaysTypecheck(t *testing.T) {
	t.Parallel()
	c := newClassifier(t)
	out := "    Checking calc v0.1.0\nerror[E0425]: cannot find function `add` in this scope\n --> src/lib.rs:11:20\n" +
		"error: could not compile `calc` (lib) due to 1 previous error\n"
	r := c.Classify(Evidence{AgentRan: true, FilesChanged: []string{"src/lib.rs"},
		Gate: &GateEvidence{Kind: "lint", Command: "cargo clippy -- -D warnings", ExitCode: 101, Output: out}})
	require.Equal(t, failreport.TypecheckError, r.Type)
}

// TestMissingPackageSuggestsInstall: the report says how to install the
// package, not how to put a command on PATH.
func TestMissingPackageSuggestsInstall(t *testing.T) {
	t.Parallel()
	c := newClassifier(t)
	r := c.Classify(Evidence{AgentRan: true, FilesChanged: []string{"client.py"},
		Gate: &GateEvidence{Kind: "test", Command: "pytest", ExitCode: 2,
			Output: "client.py:1: in <module>\n    import httpx\nE   ModuleNotFoundError: No module named 'httpx'\n"}})
	require.Equal(t, failreport.DependencyMissing, r.Type)
	require.Contains(t, r.Message, "the python package httpx is not installed")
	require.Contains(t, r.SuggestedActions[0], "pip install httpx")
	require.NotContains(t, r.SuggestedActions, "command -v httpx")
	require.False(t, r.Retryable)
}
