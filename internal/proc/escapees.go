package proc

import (
	"crypto/rand"
	"encoding/hex"
	"time"
)

// A process that leaves its process group (setsid, a daemon's double fork)
// is out of reach of the group's signals: it would outlive its phase, a
// halt, Ctrl-C and autobuild's own kill -9, still editing a worktree. So
// every supervised child gets a marker variable of its own in its
// environment, which its descendants inherit wherever they move; when the
// child's run ends (and when the guard sees autobuild die), every process
// carrying the marker is killed. A descendant that empties its environment
// (env -i) escapes this; the README says so.

// markerPrefix starts the name of the marker variable.
const markerPrefix = "AUTOBUILD_SUPERVISED_"

// guardMarkerEnv passes the marker variable's name to the guard.
const guardMarkerEnv = "AUTOBUILD_PROC_GUARD_MARKER"

// newMarker returns a new marker variable name, unique to one run of one
// process. The name, not the value, carries the token, so the markers of
// nested supervisors (an autobuild run as an agent) accumulate instead of
// replacing each other.
func newMarker() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return markerPrefix + hex.EncodeToString(b[:])
}

// killMarked kills every process (this one excepted) whose environment
// holds marker, and waits (up to markedWait) until none is left: a process
// forking while it is being killed leaves a marked child, found on the next
// pass, and a killed process keeps its environment until it has exited.
// Where processes' environments cannot be read (no /proc), it does nothing.
func killMarked(marker string) {
	deadline := time.Now().Add(markedWait)
	for {
		pids := markedPIDs(marker)
		if len(pids) == 0 || time.Now().After(deadline) {
			return
		}
		for _, pid := range pids {
			killPID(pid)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// markedWait bounds how long killMarked waits for the killed to exit.
const markedWait = 5 * time.Second
