package failure

import (
	"testing"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/stretchr/testify/require"
)

func msgs(ms ...string) []failreport.Report {
	out := make([]failreport.Report, len(ms))
	for i, m := range ms {
		out[i] = failreport.Report{Type: failreport.AgentError, Message: m}
	}
	return out
}

func TestIsCircular(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		current  failreport.Report
		history  []failreport.Report
		circular bool
	}{
		{"the seeds' example",
			failreport.Report{Message: "Using async await pattern"},
			msgs("Using async await for fetch", "Using async/await with try-catch"), true},
		{"the seeds' example needs two similar attempts",
			failreport.Report{Message: "Using async await pattern"},
			msgs("Using async await for fetch"), false},
		{"different approaches",
			failreport.Report{Message: "Switch the cache to an LRU map"},
			msgs("Using async await for fetch", "Add retry around the HTTP client", "Pin the dependency version"), false},
		{"only the last three count",
			failreport.Report{Message: "Using async await pattern"},
			msgs("Using async await for fetch", "Using async/await with try-catch", "rewrite parser", "new schema", "drop column"), false},
		{"two of the last three",
			failreport.Report{Message: "Using async await pattern"},
			msgs("old thing", "Using async await for fetch", "rewrite parser", "Using async/await with try-catch"), true},
		{"same failing tests again",
			failreport.Report{Message: "test gate failed: 2 tests failing (TestAdd, TestSub)", BlockedOn: "failing tests: TestAdd, TestSub"},
			[]failreport.Report{
				{Message: "test gate failed: 2 tests failing (TestAdd, TestSub)", BlockedOn: "failing tests: TestAdd, TestSub"},
				{Message: "test gate failed: 2 tests failing (TestSub, TestAdd)", Details: "calc_test.go:9"},
			}, true},
		{"template words alone are not similarity",
			failreport.Report{Message: "test gate failed: 1 test failing (TestParse)", BlockedOn: "failing tests: TestParse"},
			[]failreport.Report{
				{Message: "test gate failed: 1 test failing (TestAdd)", BlockedOn: "failing tests: TestAdd"},
				{Message: "test gate failed: 1 test failing (TestRender)", BlockedOn: "failing tests: TestRender"},
			}, false},
		{"details and blocked on count",
			failreport.Report{Message: "x", Details: "connection refused to database server", BlockedOn: "postgres"},
			[]failreport.Report{{Message: "y", Details: "connection refused to database", BlockedOn: "postgres"},
				{Message: "z", Details: "database server connection refused"}}, true},
		{"empty reports are not circular", failreport.Report{}, []failreport.Report{{}, {}, {}}, false},
		{"no history", failreport.Report{Message: "a b c"}, nil, false},
	}
	for _, tt := range tests {
		require.Equal(t, tt.circular, IsCircular(tt.current, tt.history), tt.name)
	}
}

func TestWordSetAndJaccard(t *testing.T) {
	t.Parallel()
	require.Equal(t, map[string]bool{"async": true, "await": true, "try": true, "catch": true},
		WordSet("Using async/await with try-catch"))
	require.Equal(t, map[string]bool{"ünïcode": true, "v2": true}, WordSet("the Ünïcode, 42 v2!"))
	a := WordSet("async await fetch")
	b := WordSet("async await try catch")
	require.InDelta(t, 2.0/5.0, Jaccard(a, b), 1e-9)
	require.Equal(t, 0.0, Jaccard(nil, nil))
	require.Equal(t, 1.0, Jaccard(a, a))
}
