package history

import (
	"sync"
	"time"

	"github.com/autobuild-sh/autobuild/internal/state"
)

// Observer turns the engine's record of a run into history lines: the engine
// calls AttemptEnded when an attempt's outcome is written, and RunEnded when
// the run's final status is. A failed write never stops the run (the
// history is for reports); the first error is kept for Err.
type Observer struct {
	w *Writer
	// session is when this invocation started; written once by NewObserver.
	session time.Time

	mu  sync.Mutex // guards err
	err error
}

// NewObserver returns an Observer appending to path for the session that
// started at session.
func NewObserver(path string, session time.Time) *Observer {
	return &Observer{w: NewWriter(path), session: session}
}

// AttemptEnded appends the record of p's last attempt, which has just ended.
func (o *Observer) AttemptEnded(run state.Run, p state.Phase) {
	if len(p.Attempts) == 0 {
		return
	}
	o.keep(o.w.Append(AttemptRecord(run, p, o.session)))
}

// RunEnded appends the session's end and returns what the history now says
// about the run's phases, or "" (see Note).
func (o *Observer) RunEnded(run state.Run, phases []state.Phase) string {
	end := RunEndRecord(run, phases, o.session)
	if err := o.w.Append(end); err != nil {
		o.keep(err)
		return ""
	}
	recs, _, err := Read(o.w.Path())
	if err != nil {
		o.keep(err)
		return ""
	}
	return Note(recs, end)
}

// Err returns the first write that failed, if any.
func (o *Observer) Err() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

func (o *Observer) keep(err error) {
	if err == nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err == nil {
		o.err = err
	}
}
