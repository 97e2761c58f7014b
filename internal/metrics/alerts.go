package metrics

import (
	"fmt"
	"time"

	"github.com/autobuild-sh/autobuild/internal/history"
	"github.com/autobuild-sh/autobuild/internal/human"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// The design's alert thresholds.
const (
	criticalRate   = 0.50
	warningRate    = 0.20
	investigateN   = 5 // one type more than this many times
	emergencySpell = time.Hour
)

// alerts returns the alert levels the report reaches, most severe first.
func alerts(rep *Report, recs []history.Record) []Alert {
	out := []Alert{}
	if a, ok := emergency(recs); ok {
		out = append(out, a)
	}
	if r := rep.FailureRate; r != nil {
		switch {
		case *r > criticalRate:
			out = append(out, Alert{LevelCritical, fmt.Sprintf("failure rate %s is over 50%% (%d of %d attempts failed)",
				Percent(*r), rep.Failures, rep.Attempts-rep.Interrupted)})
		case *r > warningRate:
			out = append(out, Alert{LevelWarning, fmt.Sprintf("failure rate %s is over 20%% (%d of %d attempts failed)",
				Percent(*r), rep.Failures, rep.Attempts-rep.Interrupted)})
		}
	}
	for _, t := range rep.ByType {
		if t.Count > investigateN {
			out = append(out, Alert{LevelInvestigate, fmt.Sprintf("%s failed %d times (more than %d): look for a common cause",
				t.Type, t.Count, investigateN)})
		}
	}
	return out
}

// emergency is the design's "no successful tasks in 1 hour": the failures
// since the last completed attempt span an hour or more.
func emergency(recs []history.Record) (Alert, bool) {
	var first, last time.Time
	n := 0
	for _, r := range recs {
		if r.Kind != history.KindAttempt {
			continue
		}
		switch r.Outcome {
		case state.OutcomeComplete:
			first, n = time.Time{}, 0
		case state.OutcomeFailed:
			if n == 0 {
				first = r.Time
			}
			last = r.Time
			n++
		}
	}
	if n < 2 || last.Sub(first) < emergencySpell {
		return Alert{}, false
	}
	return Alert{LevelEmergency, fmt.Sprintf("no attempt completed in %s: the last %d attempts failed",
		human.Duration(last.Sub(first).Seconds()), n)}, true
}
