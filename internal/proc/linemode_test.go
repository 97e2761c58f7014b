package proc

import (
	"bytes"
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// feed writes each chunk to a sink as one read, with the mode the test
// sets before each, and returns the lines OnLine got.
func feed(t *testing.T, steps []struct {
	mode  LineMode
	chunk string
}) (lines []string, raw string) {
	t.Helper()
	var mode LineMode
	var out bytes.Buffer
	s := newSink(&out, func(l string) { lines = append(lines, l) }, func() LineMode { return mode })
	for _, st := range steps {
		mode = st.mode
		s.write([]byte(st.chunk))
	}
	s.flush()
	return lines, out.String()
}

type step = struct {
	mode  LineMode
	chunk string
}

func TestLineModes(t *testing.T) {
	t.Run("none hands out no line but keeps every byte", func(t *testing.T) {
		lines, raw := feed(t, []step{{LinesNone, "a\nb\n"}, {LinesNone, "c\n"}})
		assert.Empty(t, lines)
		assert.Equal(t, "a\nb\nc\n", raw)
	})
	t.Run("last hands out the read's last complete line", func(t *testing.T) {
		lines, _ := feed(t, []step{{LinesLast, "a\nb\nc\npart"}, {LinesLast, "ial\nx\ny\n"}})
		assert.Equal(t, []string{"c", "y"}, lines)
	})
	t.Run("last completes the line carried over when one line ends in the read", func(t *testing.T) {
		lines, _ := feed(t, []step{{LinesLast, "a\nhal"}, {LinesLast, "f\nnext"}, {LinesLast, "\n"}})
		assert.Equal(t, []string{"a", "half", "next"}, lines)
	})
	t.Run("back to all after none starts at a line's beginning", func(t *testing.T) {
		lines, _ := feed(t, []step{{LinesNone, "skipped\nthe start of "}, {LinesAll, "a line\nnext\n"}})
		assert.Equal(t, []string{"the start of a line", "next"}, lines)
	})
	t.Run("all after last keeps the carried line whole", func(t *testing.T) {
		lines, _ := feed(t, []step{{LinesLast, "1\n2\nhead "}, {LinesAll, "tail\n3\n"}})
		assert.Equal(t, []string{"2", "head tail", "3"}, lines)
	})
	t.Run("a skipped line longer than the line cap is bounded", func(t *testing.T) {
		var mode LineMode = LinesNone
		s := newSink(nil, func(string) {}, func() LineMode { return mode })
		s.write([]byte(strings.Repeat("x", 3*maxLine)))
		assert.LessOrEqual(t, len(s.partial), maxLine)
	})
}

// A process's flood reaches the log in full while the lines nobody shows
// are never handed out.
func TestRunLinesNoneKeepsTheOutput(t *testing.T) {
	var out bytes.Buffer
	var calls, asked atomic.Int64
	res := Run(context.Background(), Spec{
		Shell:  "i=0; while [ $i -lt 2000 ]; do echo line $i; i=$((i+1)); done",
		Output: &out,
		OnLine: func(string) { calls.Add(1) },
		Lines:  func() LineMode { asked.Add(1); return LinesNone },
	})
	require.NoError(t, res.Err)
	assert.Zero(t, calls.Load())
	assert.Positive(t, asked.Load())
	assert.Equal(t, 2000, strings.Count(out.String(), "\n"))
	assert.True(t, strings.HasSuffix(res.Tail, "line 1999\n"))
}
