package history

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// BenchmarkRunEndNote is what a run's end costs with a full history: read
// both files (2 × DefaultMaxBytes) and compute the summary's note.
func BenchmarkRunEndNote(b *testing.B) {
	path := filepath.Join(b.TempDir(), "history.jsonl")
	n := 0
	for _, p := range []string{path + ".1", path} {
		var data []byte
		for len(data) < DefaultMaxBytes-1000 {
			r := rec(n % 7)
			r.V, r.RunID, r.Session = Version, strconv.Itoa(n/7), strconv.Itoa(n/7)
			r.Outcome, r.FailureType, r.FailureMessage = "failed", "test_failure", "test gate failed: 1 test failing (TestFormat)"
			line, err := json.Marshal(r)
			if err != nil {
				b.Fatal(err)
			}
			data = append(append(data, line...), '\n')
			n++
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	end := Record{Kind: KindRunEnd, RunID: strconv.Itoa((n - 1) / 7), Session: strconv.Itoa((n - 1) / 7), PlanPath: "plan.md"}
	b.ResetTimer()
	for b.Loop() {
		recs, _, err := Read(path)
		if err != nil || len(recs) != n {
			b.Fatal(err, len(recs))
		}
		if Note(recs, end) == "" {
			b.Fatal("no note")
		}
	}
}
