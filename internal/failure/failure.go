// Package failure classifies an attempt's evidence into one of the failure
// types of docs/failures.md and writes the failure report that goes into the
// phase file, the retry prompt, the TUI and the halt summary. The types
// themselves (failreport.Type, its constants, failreport.Report) live in the
// leaf package failreport, and callers name them there.
package failure
