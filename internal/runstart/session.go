package runstart

import (
	"time"

	"github.com/autobuild-sh/autobuild/internal/state"
)

// StartSession marks the start (or resume) of a run at now. The session
// that ended before it, if any, adds its length to ActiveSeconds, so the
// run's wall time never counts the hours it sat halted. A session that
// never ended (autobuild was killed) counts up to the run's last update.
func StartSession(r *state.Run, now time.Time) {
	switch {
	case r.SessionStarted != nil && r.Finished != nil:
		r.ActiveSeconds += max(0, r.Finished.Sub(*r.SessionStarted).Seconds())
	case r.SessionStarted != nil:
		r.ActiveSeconds += max(0, r.Updated.Sub(*r.SessionStarted).Seconds())
	case r.Finished != nil:
		// A run recorded before sessions were: its time so far is one
		// session from its first start.
		r.ActiveSeconds += max(0, r.Finished.Sub(r.Started).Seconds())
	}
	r.SessionStarted = &now
}
