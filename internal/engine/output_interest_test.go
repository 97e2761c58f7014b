package engine

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/event"
)

// interested is a sink whose consumers show only some output lines.
type interested struct {
	events
	interest event.OutputInterest
}

func (s *interested) OutputInterest() event.OutputInterest { return s.interest }

func outputLines(evs []event.Event) []string {
	var lines []string
	for _, e := range evs {
		if e.Kind == event.PhaseOutput {
			lines = append(lines, e.Line)
		}
	}
	return lines
}

// What the consumers show decides which output lines become events; the
// attempt log has every line whatever they show.
func TestOutputLinesFollowTheConsumersInterest(t *testing.T) {
	t.Parallel()
	const flood = `i=0; while [ $i -lt 3000 ]; do echo "line $i"; i=$((i+1)); done`
	for _, tc := range []struct {
		name     string
		interest event.OutputInterest
		check    func(t *testing.T, lines []string)
	}{
		{"none", event.OutputNone, func(t *testing.T, lines []string) { assert.Empty(t, lines) }},
		{"latest", event.OutputLatest, func(t *testing.T, lines []string) {
			require.NotEmpty(t, lines)
			assert.LessOrEqual(t, len(lines), 3000) // how many reads coalesce is the pipe's to say: proc's tests pin it
			assert.Equal(t, "line 2999", lines[len(lines)-1], "the latest line is always shown")
		}},
		{"all", event.OutputAll, func(t *testing.T, lines []string) { assert.Len(t, lines, 3000) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			repo := gitRepo(t, onePhase)
			sink := &interested{interest: tc.interest}
			cfg := baseConfig(t, repo, onePhase, flood, sink)
			res, err := Run(context.Background(), cfg)
			require.NoError(t, err)
			require.Equal(t, 0, res.ExitCode())
			tc.check(t, outputLines(sink.list))

			log, err := os.ReadFile(filepath.Join(repo, ".autobuild", "logs", "phase-1.attempt-1.log"))
			require.NoError(t, err)
			assert.Len(t, regexp.MustCompile(`(?m)^line \d+$`).FindAll(log, -1), 3000)
		})
	}
}
