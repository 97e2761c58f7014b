package failure

import "github.com/autobuild-sh/autobuild/internal/failreport"

// IntegrationConflict: a phase green on its own base breaks a gate on top
// of what landed meanwhile (failreport.IntegrationConflict).
const IntegrationConflict = failreport.IntegrationConflict

// Blocker returns the line a failed gate's output is blocked on (its first
// error statement, located), as a report's message quotes it.
func Blocker(output string) string { return blockerLine(output) }
