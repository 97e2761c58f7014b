package failreport

// IntegrationConflict means a phase passed its gates on its own base, but
// its change picked onto what landed meanwhile fails a gate: each side is
// green alone, the combination is not (a rename against a new caller). It
// is retryable: the retry starts from the line's current tip, with the
// failing gate's output and the other phases' changes in its prompt.
const IntegrationConflict Type = "integration_conflict"
