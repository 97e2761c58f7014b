package failure

// Blocker returns the line a failed gate's output is blocked on (its first
// error statement, located), as a report's message quotes it.
func Blocker(output string) string { return blockerLine(output) }
