package failure

import (
	"testing"
	"time"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/stretchr/testify/require"
)

func newClassifier(t *testing.T, extra ...Pattern) *Classifier {
	t.Helper()
	c, err := NewClassifier(extra)
	require.NoError(t, err)
	return c
}

func testGate(out string) *GateEvidence {
	return &GateEvidence{Kind: "test", Command: "go test ./...", ExitCode: 1, Output: out, Declared: true}
}

// TestClassifyPriority checks each step of the priority order, and that a
// step wins over every later one when the evidence shows both.
func TestClassifyPriority(t *testing.T) {
	t.Parallel()
	goFail := "--- FAIL: TestAdd (0.00s)\n--- FAIL: TestSub (0.00s)\nFAIL\n"
	tests := []struct {
		name    string
		ev      Evidence
		typ     failreport.Type
		message string
	}{
		// 1. timeout
		{"timeout beats everything", Evidence{TimedOut: true, Duration: 30 * time.Minute, AgentExitCode: 127,
			AgentNotFound: true, Gate: testGate(goFail)}, failreport.Timeout, "timed out after 30m0s: the test gate `go test ./...` was still running"},
		{"idle timeout", Evidence{IdleTimedOut: true, Duration: 12*time.Minute + 400*time.Millisecond},
			failreport.Timeout, "timed out after 12m0s: no output for the idle limit"},
		{"a gate still running at the limit", Evidence{TimedOut: true, Duration: 30 * time.Minute,
			Gate: &GateEvidence{Kind: "test", Command: "npm test", ExitCode: -1, Output: "watching for changes..."}},
			failreport.Timeout, "timed out after 30m0s: the test gate `npm test` was still running"},
		{"the agent took the whole time", Evidence{TimedOut: true, Duration: 30 * time.Minute, AgentOutput: "still thinking\n"},
			failreport.Timeout, "timed out after 30m0s: no time was left to run the gates"},
		// 2. agent missing
		{"agent not found", Evidence{AgentNotFound: true, AgentCommand: "claude -p"},
			failreport.DependencyMissing, "claude not found"},
		{"agent exit 127 names the tool", Evidence{AgentExitCode: 127, AgentCommand: "sh -c 'claude -p'",
			AgentOutput: "sh: 1: claude: not found\n"}, failreport.DependencyMissing, "claude not found (exit 127)"},
		{"exec error names the tool", Evidence{AgentNotFound: true, AgentCommand: "codex exec",
			AgentOutput: `exec: "codex": executable file not found in $PATH`}, failreport.DependencyMissing, "codex not found"},
		{"command not found ends a failed agent's output", Evidence{AgentExitCode: 1, AgentCommand: "./agent.sh",
			AgentOutput: "working\n./agent.sh: line 3: jq: command not found\n"}, failreport.DependencyMissing, "jq not found"},
		{"missing agent beats rate limit", Evidence{AgentNotFound: true, AgentCommand: "claude",
			AgentOutput: "429 rate limit"}, failreport.DependencyMissing, "claude not found"},
		// 3. rate limit
		{"rate limited", Evidence{AgentExitCode: 1, AgentOutput: "API Error: 429 Too Many Requests\n"},
			failreport.RateLimited, "rate limited by the model provider: API Error: 429 Too Many Requests"},
		{"rate limit in the result's message", Evidence{AgentExitCode: 0, ResultStatus: "failed", ResultFound: true,
			ResultErrorMessage: "model overloaded, try later"}, failreport.RateLimited, "rate limited by the model provider: model overloaded, try later"},
		{"rate limit beats context and gates", Evidence{AgentExitCode: 1, Gate: testGate(goFail),
			AgentOutput: "context length exceeded\nrate limit exceeded\n"}, failreport.RateLimited, "rate limited by the model provider: rate limit exceeded"},
		// 4. context
		{"context exhausted", Evidence{AgentExitCode: 1, AgentOutput: "Error: maximum context length (128k tokens) exceeded"},
			failreport.ContextExhausted, "the agent ran out of context: Error: maximum context length (128k tokens) exceeded"},
		{"context beats a failing gate", Evidence{AgentExitCode: 2, Gate: testGate(goFail), AgentOutput: "token limit reached"},
			failreport.ContextExhausted, "the agent ran out of context: token limit reached"},
		{"signals of a successful agent are ignored", Evidence{AgentExitCode: 0, ResultStatus: "complete", ResultFound: true,
			AgentOutput: "added a 429 handler for rate limit errors\n", Gate: testGate(goFail)},
			failreport.VerificationMismatch, "agent reported complete, but test gate failed: 2 tests failing (TestAdd, TestSub)"},
		// 5. gate
		{"gate tool exit 127", Evidence{Gate: &GateEvidence{Kind: "lint", Command: "golangci-lint run", ExitCode: 127,
			Output: "sh: 1: golangci-lint: not found", Declared: true}}, failreport.DependencyMissing, "golangci-lint not found (exit 127)"},
		{"gate tool not found by message", Evidence{Gate: &GateEvidence{Kind: "test", Command: "python -m pytest", ExitCode: 1,
			Output: "/usr/bin/python: No module named pytest"}}, failreport.DependencyMissing, "pytest not found"},
		{"gate tool missing beats a claim of success", Evidence{ResultStatus: "complete", ResultFound: true,
			Gate: &GateEvidence{Kind: "format", Command: "npx prettier --check .", ExitCode: 127}}, failreport.DependencyMissing, "npx not found (exit 127)"},
		{"another command not found in a test is a test failure", Evidence{Gate: testGate("sh: 1: convert: not found\n--- FAIL: TestThumb (0.01s)\n")},
			failreport.TestFailure, "test gate failed: 1 test failing (TestThumb)"},
		{"verification mismatch", Evidence{ResultStatus: "complete", ResultFound: true, Gate: testGate(goFail)},
			failreport.VerificationMismatch, "agent reported complete, but test gate failed: 2 tests failing (TestAdd, TestSub)"},
		{"test gate", Evidence{Gate: testGate(goFail)}, failreport.TestFailure, "test gate failed: 2 tests failing (TestAdd, TestSub)"},
		{"test gate without names", Evidence{Gate: testGate("boom")}, failreport.TestFailure, "test gate failed (exit 1)"},
		{"lint gate", Evidence{Gate: &GateEvidence{Kind: "lint", Command: "ruff check .", ExitCode: 1, Output: "x.py:1:1: F401 unused"}},
			failreport.LintError, "lint gate failed (exit 1)"},
		{"build gate", Evidence{Gate: &GateEvidence{Kind: "build", Command: "go build ./...", ExitCode: 1, Output: "./a.go:3: undefined: x"}},
			failreport.TypecheckError, "build gate failed (exit 1)"},
		{"typecheck gate", Evidence{Gate: &GateEvidence{Kind: "typecheck", Command: "npx tsc --noEmit", ExitCode: 2,
			Output: "src/a.ts(3,1): error TS2345: bad"}}, failreport.TypecheckError, "typecheck gate failed (exit 2)"},
		{"format gate", Evidence{Gate: &GateEvidence{Kind: "format", Command: "gofmt -l .", ExitCode: 1, Output: "a.go"}},
			failreport.FormatError, "format gate failed (exit 1)"},
		{"unknown gate kind", Evidence{Gate: &GateEvidence{Kind: "docs", Command: "make docs", ExitCode: 2}},
			failreport.AgentError, "docs gate failed (exit 2)"},
		{"gate beats parse error", Evidence{ResultRequired: true, Gate: testGate(goFail)},
			failreport.TestFailure, "test gate failed: 2 tests failing (TestAdd, TestSub)"},
		// 6. parse error
		{"no result object", Evidence{ResultRequired: true, AgentOutput: "done!"}, failreport.ParseError, "the agent printed no result object"},
		{"unreadable result", Evidence{ResultRequired: true, ResultFound: true, ResultParseErr: "invalid character '}'"},
			failreport.ParseError, "the agent's result object is unreadable: invalid character '}'"},
		{"parse error beats a typed failure", Evidence{ResultRequired: true, ResultFound: true, ResultParseErr: "bad",
			ResultStatus: "failed", ResultErrorType: "lint_error"}, failreport.ParseError, "the agent's result object is unreadable: bad"},
		{"no result is fine for a plain command", Evidence{AgentExitCode: 3}, failreport.AgentError, "agent exited with status 3"},
		// 7. typed failure
		{"agent's error type", Evidence{ResultFound: true, ResultStatus: "failed", ResultErrorType: "Lint_Error ",
			ResultErrorMessage: "eslint: 4 problems", TasksTotal: 5, TasksCompleted: 2}, failreport.LintError, "eslint: 4 problems"},
		{"agent's error type without message", Evidence{ResultFound: true, ResultStatus: "failed", ResultErrorType: "task_incomplete"},
			failreport.TaskIncomplete, "the agent reported task_incomplete"},
		{"engine-only type from the agent is ignored", Evidence{ResultFound: true, ResultStatus: "failed",
			ResultErrorType: "file_conflict", ResultErrorMessage: "someone else edited it"}, failreport.AgentError, "the agent reported failure: someone else edited it"},
		{"unknown type from the agent is ignored", Evidence{ResultFound: true, ResultStatus: "failed", ResultErrorType: "oops",
			TasksTotal: 4, TasksCompleted: 1}, failreport.TaskIncomplete, "task incomplete: 1 of 4 tasks done"},
		// 8. tasks
		{"tasks incomplete beats exit status", Evidence{AgentExitCode: 1, TasksTotal: 5, TasksCompleted: 3,
			AgentOutput: "SyntaxError: x"}, failreport.TaskIncomplete, "task incomplete: 3 of 5 tasks done"},
		// 9. exit status and output rows
		{"syntax error", Evidence{AgentExitCode: 1, AgentOutput: "  File \"a.py\", line 3\nSyntaxError: invalid syntax\n"},
			failreport.TypecheckError, "agent exited with status 1: SyntaxError: invalid syntax"},
		{"missing command early in the output is not the cause", Evidence{AgentExitCode: 4, AgentCommand: "aider",
			AgentOutput: "bash: jq: command not found\nusing python instead\nstep 2\nstep 3\nfatal: out of ideas\n"},
			failreport.AgentError, "agent exited with status 4"},
		{"plain agent error", Evidence{AgentExitCode: 3, AgentOutput: "something broke"}, failreport.AgentError, "agent exited with status 3"},
		{"reported failure with exit 0", Evidence{ResultFound: true, ResultStatus: "failed"}, failreport.AgentError, "the agent reported failure"},
		{"nothing to go on", Evidence{}, failreport.AgentError, "the attempt failed without a recognizable cause"},
	}
	c := newClassifier(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := c.Classify(tt.ev)
			require.Equal(t, tt.typ, r.Type, "message: %s", r.Message)
			require.Equal(t, tt.message, r.Message)
			require.Equal(t, tt.typ.Retryable(), r.Retryable)
			require.NotEmpty(t, r.SuggestedActions)
		})
	}
}

func TestClassifyFillsReport(t *testing.T) {
	t.Parallel()
	c := newClassifier(t)
	out := "\x1b[31m--- FAIL: TestAdd (0.00s)\x1b[0m\n    calc_test.go:9: got 3, want 4\nFAIL\nFAIL\texample.com/calc\t0.01s\n"
	r := c.Classify(Evidence{
		Attempt: 2, Duration: 12345 * time.Millisecond, TasksTotal: 5, TasksCompleted: 3,
		FilesChanged: []string{"calc.go", "calc_test.go"}, Gate: testGate(out),
	})
	require.Equal(t, failreport.Report{
		Type: failreport.TestFailure, Message: "test gate failed: 1 test failing (TestAdd)", DurationSeconds: 12.345,
		Retryable: true, Attempt: 2, WorkCompleted: []string{"3/5 tasks", "changed 2 files"},
		FilesChanged: []string{"calc.go", "calc_test.go"}, BlockedOn: "failing tests: TestAdd",
		Gate: "test", GateCommand: "go test ./...",
		GateOutput:   "--- FAIL: TestAdd (0.00s)\n    calc_test.go:9: got 3, want 4\nFAIL\nFAIL\texample.com/calc\t0.01s",
		FailingTests: []string{"TestAdd"},
		SuggestedActions: []string{"fix the failing tests: TestAdd",
			"run the tests in the phase's worktree to see the failures: go test ./...",
			"check whether the tests or the implementation hold the wrong assumption"},
	}, r)
}

func TestClassifyDetails(t *testing.T) {
	t.Parallel()
	c := newClassifier(t)

	r := c.Classify(Evidence{Gate: &GateEvidence{Kind: "lint", Command: "golangci-lint run", ExitCode: 127, Declared: true}})
	require.Equal(t, "golangci-lint", r.MissingTool)
	require.Equal(t, "the declared lint gate `golangci-lint run` needs golangci-lint, which is not installed", r.Details)
	require.Equal(t, "install golangci-lint: go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@latest", r.SuggestedActions[0])

	r = c.Classify(Evidence{AgentExitCode: 127, AgentCommand: "claude -p --output-format json", AgentOutput: "sh: 1: claude: not found"})
	require.Equal(t, "claude", r.MissingTool)
	require.False(t, r.Retryable)
	require.Equal(t, "install Claude Code: npm install -g @anthropic-ai/claude-code", r.SuggestedActions[0])

	r = c.Classify(Evidence{Gate: &GateEvidence{Kind: "lint", Command: "ruff check .", ExitCode: 1,
		Output: "Found 2 errors.\nx.py:1:1: F401 `os` imported but unused\n"}})
	require.Equal(t, "Found 2 errors.", r.BlockedOn)

	r = c.Classify(Evidence{TimedOut: true, Duration: time.Hour, AgentOutput: "running tests\nstill running\n"})
	require.Equal(t, "last output: still running", r.Details)
	require.Equal(t, "the time limit (1h0m0s)", r.BlockedOn)

	r = c.Classify(Evidence{ResultFound: true, ResultStatus: "failed", ResultErrorType: "dependency_missing",
		ResultErrorMessage: "bash: psql: command not found"})
	require.Equal(t, failreport.DependencyMissing, r.Type)
	require.Equal(t, "psql", r.MissingTool)

	r = c.Classify(Evidence{AgentExitCode: 1, AgentOutput: "--- FAIL: TestX (0.00s)\nFAIL"})
	require.Equal(t, failreport.TestFailure, r.Type)
	require.Equal(t, []string{"TestX"}, r.FailingTests)
}

func TestClassifierExtraPatterns(t *testing.T) {
	t.Parallel()
	c := newClassifier(t,
		Pattern{Type: failreport.RateLimited, Match: `quota (exceeded|used up)`, In: InOutput},
		Pattern{Type: failreport.LintError, Match: `syntax error`, In: InOutput}, // overrides the built-in typecheck row
		Pattern{Type: failreport.DependencyMissing, Match: `docker daemon is not running`},
		Pattern{Type: failreport.TypecheckError, Match: `\[build failed\]`, In: InGate},
	)
	r := c.Classify(Evidence{AgentExitCode: 1, AgentOutput: "Quota exceeded for this month"})
	require.Equal(t, failreport.RateLimited, r.Type)

	r = c.Classify(Evidence{AgentExitCode: 1, AgentOutput: "syntax error near x"})
	require.Equal(t, failreport.LintError, r.Type, "extra rows take precedence")

	r = c.Classify(Evidence{Gate: testGate("FAIL\texample.com/calc [build failed]\n")})
	require.Equal(t, failreport.TypecheckError, r.Type)
	require.Equal(t, "test gate failed (exit 1): FAIL\texample.com/calc [build failed]", r.Message)

	r = c.Classify(Evidence{ResultStatus: "complete", ResultFound: true, Gate: testGate("[build failed]")})
	require.Equal(t, failreport.VerificationMismatch, r.Type, "a claim of success still comes first")

	// Without the extra row, a Go test gate's build failure is still a
	// broken build: no test ran.
	r = newClassifier(t).Classify(Evidence{Gate: testGate("FAIL\texample.com/calc [build failed]\n")})
	require.Equal(t, failreport.TypecheckError, r.Type)
}

func TestNewClassifierRejectsBadRows(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		p    Pattern
		want string
	}{
		{"bad regexp", Pattern{Type: failreport.LintError, Match: `(`}, "missing closing )"},
		{"unknown type", Pattern{Type: "weird", Match: `x`}, `unknown failure type "weird"`},
		{"bad place", Pattern{Type: failreport.LintError, Match: `x`, In: "stderr"}, `not "stderr"`},
		{"empty match", Pattern{Type: failreport.LintError}, "empty match"},
	}
	for _, tt := range tests {
		_, err := NewClassifier([]Pattern{tt.p})
		require.ErrorContains(t, err, tt.want, tt.name)
	}
}

// TestGateKindTable checks the table of gate kinds row by row: a failed gate
// whose output matches no pattern row gets its kind's type.
func TestGateKindTable(t *testing.T) {
	t.Parallel()
	rows := []struct {
		kind string
		typ  failreport.Type
	}{
		{"test", failreport.TestFailure},
		{"lint", failreport.LintError},
		{"build", failreport.TypecheckError},
		{"typecheck", failreport.TypecheckError},
		{"format", failreport.FormatError},
		{"docs", failreport.AgentError}, // a kind the table does not know
		{"", failreport.AgentError},
	}
	require.Len(t, gateKindTypes, len(rows)-2, "every row of the table is checked")
	c := newClassifier(t)
	for _, row := range rows {
		t.Run(row.kind, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, row.typ, gateType(row.kind))
			r := c.Classify(Evidence{Gate: &GateEvidence{Kind: row.kind, Command: "check", ExitCode: 1, Output: "2 problems"}})
			require.Equal(t, row.typ, r.Type)
			require.Equal(t, row.kind, r.Gate)
			require.True(t, r.Retryable)
		})
	}
}

func TestGateTimeoutReportNamesTheGate(t *testing.T) {
	t.Parallel()
	r := newClassifier(t).Classify(Evidence{TimedOut: true, Duration: 90 * time.Second, AgentOutput: "all done",
		Gate: &GateEvidence{Kind: "test", Command: "go test ./...", ExitCode: -1, Output: "=== RUN   TestServe\n"}})
	require.Equal(t, failreport.Timeout, r.Type)
	require.True(t, r.Retryable)
	require.Equal(t, "test", r.Gate)
	require.Equal(t, "go test ./...", r.GateCommand)
	require.Equal(t, "last output: === RUN   TestServe", r.Details)
	require.Contains(t, r.SuggestedActions[0], "--phase-timeout")
}
