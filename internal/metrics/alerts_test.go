package metrics

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestAlerts(t *testing.T) {
	t.Parallel()
	// run makes ok completed and failed attempts of distinct phases, one a
	// minute, failures of the given type.
	run := func(ok, failed int, typ string) *builder {
		b := newBuilder().newRun()
		for i := range ok {
			b.ok(string(rune('a' + i)))
		}
		for i := range failed {
			b.fail(string(rune('A'+i)), typ)
		}
		return b
	}
	tests := []struct {
		name string
		b    *builder
		want []Alert
	}{
		{"all well", run(9, 0, ""), []Alert{}},
		{"exactly 20% is no warning", run(8, 2, "lint_error"), []Alert{}},
		{"over 20% is a warning", run(7, 2, "lint_error"),
			[]Alert{{LevelWarning, "failure rate 22% is over 20% (2 of 9 attempts failed)"}}},
		{"exactly 50% is still a warning", run(3, 3, "lint_error"),
			[]Alert{{LevelWarning, "failure rate 50% is over 20% (3 of 6 attempts failed)"}}},
		{"over 50% is critical", run(2, 3, "lint_error"),
			[]Alert{{LevelCritical, "failure rate 60% is over 50% (3 of 5 attempts failed)"}}},
		{"five of a type is not yet a pattern", run(20, 5, "timeout"), []Alert{}},
		{"six of a type is investigate", run(30, 6, "timeout"),
			[]Alert{{LevelInvestigate, "timeout failed 6 times (more than 5): look for a common cause"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, Compute(tt.b.recs, Filter{}, t0).Alerts)
		})
	}
}

func TestEmergencyIsAnHourOfFailuresWithoutACompletion(t *testing.T) {
	t.Parallel()
	b := newBuilder().newRun().ok("1").fail("2", "agent_error")
	b.minute += 58
	b.fail("2", "agent_error", retry())
	rep := Compute(b.recs, Filter{}, t0)
	require.Equal(t, LevelCritical, rep.Alerts[0].Level, "59 minutes is not yet an hour")

	b.minute += 5
	b.resume().fail("2", "agent_error")
	rep = Compute(b.recs, Filter{}, t0.Add(2*time.Hour))
	require.Equal(t, Alert{LevelEmergency, "no attempt completed in 1h05m: the last 3 attempts failed"}, rep.Alerts[0])
	require.Equal(t, LevelCritical, rep.Alerts[1].Level, "most severe first")

	b.ok("2")
	require.NotEqual(t, LevelEmergency, Compute(b.recs, Filter{}, t0).Alerts[0].Level, "a completion ends it")
}
