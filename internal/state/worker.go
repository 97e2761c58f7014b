package state

// Worker is the worker that makes or last made the phase's attempt
// (--executor temporal): its latest attempt's, "" for a local one or a
// phase not tried yet.
func (p *Phase) Worker() string {
	if n := len(p.Attempts); n > 0 {
		return p.Attempts[n-1].Worker
	}
	return ""
}
