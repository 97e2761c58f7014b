package failure

import (
	"strings"
	"testing"
	"time"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/stretchr/testify/require"
)

func TestFormatReport(t *testing.T) {
	t.Parallel()
	c := newClassifier(t)
	r := c.Classify(Evidence{
		Attempt: 1, Duration: 145200 * time.Millisecond, TasksTotal: 5, TasksCompleted: 3,
		FilesChanged: []string{"src/auth.go", "src/auth_test.go"},
		Gate: &GateEvidence{Kind: "test", Command: "go test ./...", ExitCode: 1,
			Output: "--- FAIL: TestValidateToken (0.00s)\n    auth_test.go:12: got nil\nFAIL\n"},
	})
	want := `test gate failed: 1 test failing (TestValidateToken)

Type: test_failure
Attempt: 1
Duration: 2m25s
Retryable: yes

Work completed before failure:
  ✓ 3/5 tasks
  ✓ changed 2 files

Files changed: src/auth.go, src/auth_test.go

Blocked on: failing tests: TestValidateToken
Failing tests: TestValidateToken

Failing gate: test (go test ./...)
Output (tail):
  | --- FAIL: TestValidateToken (0.00s)
  |     auth_test.go:12: got nil
  | FAIL

Suggested recovery actions:
  • fix the failing tests: TestValidateToken
  • run the tests in the phase's worktree to see the failures: go test ./...
  • check whether the tests or the implementation hold the wrong assumption
`
	require.Equal(t, want, FormatReport(r))
}

func TestFormatReportMinimal(t *testing.T) {
	t.Parallel()
	got := FormatReport(failreport.Report{Type: failreport.FileConflict, Message: "2a and 2b changed src/routes.ts",
		Details: "src/routes.ts:\n  2a changed lines 10-25\n  2b changed lines 15-30", DurationSeconds: 1.25, Circular: true})
	for _, want := range []string{
		"2a and 2b changed src/routes.ts\n\nType: file_conflict\n",
		"Duration: 1.3s\nRetryable: no\nCircular: yes",
		"Details:\n  src/routes.ts:\n    2a changed lines 10-25\n",
		"Work completed before failure:\n  none\n",
		"Files changed: none\n",
	} {
		require.Contains(t, got, want)
	}
	require.NotContains(t, got, "Attempt:")
	require.NotContains(t, got, "Failing gate")
	require.NotContains(t, got, "Suggested recovery actions")
	require.True(t, strings.HasSuffix(got, "\n"))
}

// After the one retry, a retryable type no longer means autobuild will try
// again: the report says what is left to do.
func TestFormatReportAfterTheRetry(t *testing.T) {
	t.Parallel()
	r := failreport.Report{Type: failreport.TestFailure, Message: "test gate failed", Retryable: true, Attempt: 2}
	require.Contains(t, FormatReport(r), "Retryable: yes, but this was the retry: fix the cause, then resume\n")
	r.Attempt = 1
	require.Contains(t, FormatReport(r), "Retryable: yes\n")
	r.Retryable = false
	require.Contains(t, FormatReport(r), "Retryable: no\n")
}
