package failure

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkClassifyRecorded classifies every recorded gate output once per
// iteration: the cost of reading a failed gate as a person does.
func BenchmarkClassifyRecorded(b *testing.B) {
	c, err := NewClassifier(nil)
	if err != nil {
		b.Fatal(err)
	}
	var evs []Evidence
	for _, row := range recordedGates {
		rec := loadRecorded(b, row.name)
		evs = append(evs, Evidence{AgentRan: true, FilesChanged: []string{"calc.go"},
			Gate: &GateEvidence{Kind: row.kind, Command: rec.command, ExitCode: rec.exit, Output: rec.output}})
	}
	b.ResetTimer()
	for b.Loop() {
		for _, ev := range evs {
			c.Classify(ev)
		}
	}
}

// BenchmarkClassifyLargeOutput classifies go test output ending in a
// failure: 16 KiB is what the engine keeps of a gate's output (proc's
// TailSize), 1 MiB shows the time grows with the length and no worse (the
// regular expressions are RE2).
func BenchmarkClassifyLargeOutput(b *testing.B) {
	c, err := NewClassifier(nil)
	if err != nil {
		b.Fatal(err)
	}
	line := "=== RUN   TestSomething\n    some_test.go:12: log line with error words: failed, cannot, expected\n"
	for _, size := range []int{16 << 10, 1 << 20} {
		out := strings.Repeat(line, size/len(line)) + "--- FAIL: TestLast (0.00s)\nFAIL\n"
		ev := Evidence{AgentRan: true, FilesChanged: []string{"a.go"}, Gate: testGate(out)}
		b.Run(fmt.Sprintf("%dKiB", size>>10), func(b *testing.B) {
			b.SetBytes(int64(len(out)))
			for b.Loop() {
				c.Classify(ev)
			}
		})
	}
}
