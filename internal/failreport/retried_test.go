package failreport

import "testing"

// The one-retry rule, which the scheduler and the UI both read.
func TestRetried(t *testing.T) {
	retryable := &Report{Type: TestFailure, Retryable: true}
	cases := []struct {
		name        string
		r           *Report
		number, max int
		want        bool
	}{
		{"a retryable first attempt", retryable, 1, 2, true},
		{"the last attempt", retryable, 2, 2, false},
		{"not retryable", &Report{Type: AgentSetup}, 1, 2, false},
		{"the same fix again", &Report{Type: TestFailure, Retryable: true, Circular: true}, 1, 2, false},
		{"no report", nil, 1, 2, false},
	}
	for _, c := range cases {
		if got := c.r.Retried(c.number, c.max); got != c.want {
			t.Errorf("%s: Retried = %v, want %v", c.name, got, c.want)
		}
	}
}
