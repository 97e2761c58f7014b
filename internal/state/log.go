package state

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/autobuild-sh/autobuild/internal/sanitize"
)

// FormatLogLine formats one execution.log line: the time in RFC 3339, UTC
// (so lines from runs in different time zones sort and compare), then msg:
// "[2026-11-22T10:30:00Z] PHASE 2A FAILED - test_failure (attempt 1)".
func FormatLogLine(t time.Time, msg string) string {
	return "[" + t.UTC().Format(time.RFC3339) + "] " + msg
}

// AppendEvent appends line to logs/execution.log. The file is opened with
// O_APPEND and the line (newlines inside it flattened, one newline added) is
// written with a single write, so concurrent callers, in this process or
// another, never interleave within a line.
func (s *Store) AppendEvent(line string) error {
	if err := os.MkdirAll(s.LogsDir(), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", s.LogsDir(), err)
	}
	line = strings.TrimRight(line, "\r\n")
	line = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(line)
	// The log is read with cat and tail: nothing in it may drive a terminal.
	line = sanitize.Line(line) + "\n"
	f, err := os.OpenFile(s.ExecutionLogPath(), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("opening %s: %w", displayPath(s.ExecutionLogPath()), err)
	}
	if _, err := f.WriteString(line); err != nil {
		_ = f.Close()
		return fmt.Errorf("appending to %s: %w", displayPath(s.ExecutionLogPath()), err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("closing %s: %w", displayPath(s.ExecutionLogPath()), err)
	}
	return nil
}
