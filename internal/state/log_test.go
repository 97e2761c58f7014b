package state

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestFormatLogLine(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 22, 11, 30, 0, 0, time.FixedZone("CET", 3600))
	require.Equal(t, "[2026-11-22T10:30:00Z] PHASE 2A FAILED - test_failure (attempt 1)",
		FormatLogLine(at, "PHASE 2A FAILED - test_failure (attempt 1)"))
}

func TestAppendEventConcurrent(t *testing.T) {
	t.Parallel()
	s := Open(t.TempDir())
	const goroutines, each = 20, 50
	long := strings.Repeat("x", 3000) // longer than a pipe's atomic write, still one line
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range each {
				require.NoError(t, s.AppendEvent(fmt.Sprintf("g%02d i%02d %s", g, i, long)))
			}
		})
	}
	wg.Wait()
	data, err := os.ReadFile(s.ExecutionLogPath())
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	require.Len(t, lines, goroutines*each)
	seen := map[string]bool{}
	for _, l := range lines {
		var g, i int
		_, err := fmt.Sscanf(l, "g%02d i%02d ", &g, &i)
		require.NoError(t, err, "line %q", l[:min(len(l), 20)])
		require.True(t, strings.HasSuffix(l, " "+long), "torn line")
		require.Len(t, l, len("g00 i00 ")+len(long))
		seen[l[:7]] = true
	}
	require.Len(t, seen, goroutines*each)
}

func TestAppendEventFlattensNewlines(t *testing.T) {
	t.Parallel()
	s := Open(t.TempDir())
	require.NoError(t, s.AppendEvent("one\ntwo\r\n"))
	require.NoError(t, s.AppendEvent("three"))
	data, err := os.ReadFile(s.ExecutionLogPath())
	require.NoError(t, err)
	require.Equal(t, "one two\nthree\n", string(data))
}
