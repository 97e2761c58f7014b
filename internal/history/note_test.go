package history

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// runOf is one run of phase 2B with one session: its outcomes in order.
func runOf(i int, outcomes ...string) []Record {
	id := fmt.Sprintf("run-%02d", i)
	var out []Record
	for n, o := range outcomes {
		r := Record{Kind: KindAttempt, RunID: id, Session: id, PlanPath: "plan.md", PhaseID: "2b", DisplayID: "2B",
			Attempt: n + 1, Outcome: "complete"}
		if o != "ok" {
			r.Outcome, r.FailureType = "failed", o
		}
		out = append(out, r)
	}
	return out
}

func TestNote(t *testing.T) {
	t.Parallel()
	end := func(i int) Record {
		id := fmt.Sprintf("run-%02d", i)
		return Record{Kind: KindRunEnd, RunID: id, Session: id, PlanPath: "plan.md"}
	}
	var recs []Record
	recs = append(recs, runOf(1, "test_failure", "ok")...)
	require.Empty(t, Note(recs, end(1)), "one failure is no pattern")
	recs = append(recs, runOf(2, "ok")...)
	require.Empty(t, Note(recs, end(2)), "a run without failures says nothing")
	recs = append(recs, runOf(3, "lint_error", "ok")...)
	require.Empty(t, Note(recs, end(3)), "another type is another cause")
	recs = append(recs, runOf(4, "test_failure", "test_failure")...)
	require.Equal(t, "phase 2B has failed with test_failure in 2 of its last 4 runs", Note(recs, end(4)))
	recs = append(recs, runOf(5, "test_failure", "ok")...)
	require.Equal(t, "phase 2B has failed with test_failure in 3 of its last 5 runs", Note(recs, end(5)))

	for i := 6; i <= 15; i++ {
		recs = append(recs, runOf(i, "test_failure", "ok")...)
	}
	require.Equal(t, "phase 2B has failed with test_failure in each of its last 10 runs", Note(recs, end(15)),
		"only the last ten runs count")

	other := end(15)
	other.PlanPath = "other.md"
	require.Empty(t, Note(recs, other), "another plan's phase 2B is another phase")
}
