package failure

// Error is a failure as a Go error value, so code that only has an error can
// still get at the report with errors.As.
type Error struct {
	Report Report
	// Err is the underlying cause, if there is one.
	Err error
}

// Error returns "<type>: <message>", falling back to the cause when the
// report has no message.
func (e *Error) Error() string {
	msg := e.Report.Message
	if msg == "" && e.Err != nil {
		msg = e.Err.Error()
	}
	if e.Report.Type == "" {
		return msg
	}
	return string(e.Report.Type) + ": " + msg
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }
