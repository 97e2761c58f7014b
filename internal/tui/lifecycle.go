package tui

import (
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/runctl"
)

// lifeState is where the model is in the life of the run it drives (live
// mode). How the run itself ended (halted, interrupted, complete) is the
// run's status, from its events; this is what the model may do next: wait
// for Start, read events, quit, or start again.
//
//	idle ── (no run to drive: watch mode, read-only) ── interrupt quits
//
//	starting ──started──▶ running ──closed──▶ ended ──restart──▶ restarting
//	   │                    │                                     │
//	   │ refused            │ interrupt                 started ──┘──▶ running
//	   ▼                    ▼
//	startFailed          halting ──closed──▶ ended, and quit
//	   │
//	   └──restart──▶ restarting
//
//	starting, restarting ──interrupt──▶ haltingStart ──started──▶ halting
//	                                          └──refused──▶ startFailed, and quit
//
// interrupt in idle, ended or startFailed quits at once: there is no run
// to halt. A closed event channel ends the run from any active state.
type lifeState int

const (
	// lifeIdle: there is no run to drive (watch mode, read-only, no
	// controller).
	lifeIdle lifeState = iota
	// lifeStarting: Controller.Start was called for the command line's
	// run and has not answered.
	lifeStarting
	// lifeRestarting: r or F called Start after a run ended or failed to
	// start; the old screen stays until the engine accepts the new run (a
	// refused start must not lose the failure being read).
	lifeRestarting
	// lifeRunning: the run started; its events are being read.
	lifeRunning
	// lifeHaltingStart: the user interrupted before Start answered; the
	// interrupt went to the run being started.
	lifeHaltingStart
	// lifeHalting: the user interrupted a running run (ctrl+c, or q then
	// y): it was asked to halt, and the program quits once it has ended.
	lifeHalting
	// lifeEnded: the run's events closed; run.status says how it ended.
	lifeEnded
	// lifeStartFailed: Start refused (lifecycle.err says why); r and F
	// may try again.
	lifeStartFailed
)

var lifeNames = [...]string{
	lifeIdle: "idle", lifeStarting: "starting", lifeRestarting: "restarting", lifeRunning: "running",
	lifeHaltingStart: "halting-start", lifeHalting: "halting", lifeEnded: "ended", lifeStartFailed: "start-failed",
}

func (s lifeState) String() string { return lifeNames[s] }

// lifeEvent is what moves the lifecycle.
type lifeEvent int

const (
	lifeStarted   lifeEvent = iota // Controller.Start returned the run's events
	lifeRefused                    // Controller.Start returned an error
	lifeClosed                     // the run's event channel closed
	lifeInterrupt                  // ctrl+c, or q confirmed
	lifeRestart                    // r, or F confirmed
)

var lifeEventNames = [...]string{
	lifeStarted: "started", lifeRefused: "refused", lifeClosed: "closed", lifeInterrupt: "interrupt", lifeRestart: "restart",
}

func (e lifeEvent) String() string { return lifeEventNames[e] }

// next is the lifecycle's transition table: the state after e, and whether
// the program quits. An event that does not apply (a late message, r while
// running: the callers check first) leaves the state as it is.
func (s lifeState) next(e lifeEvent) (lifeState, bool) {
	switch e {
	case lifeStarted:
		switch s {
		case lifeStarting, lifeRestarting:
			return lifeRunning, false
		case lifeHaltingStart:
			return lifeHalting, false
		}
	case lifeRefused:
		switch s {
		case lifeStarting, lifeRestarting:
			return lifeStartFailed, false
		case lifeHaltingStart:
			return lifeStartFailed, true
		}
	case lifeClosed:
		// Events come only after started; a closed channel ends the run
		// from any active state all the same.
		switch s {
		case lifeStarting, lifeRestarting, lifeRunning:
			return lifeEnded, false
		case lifeHaltingStart, lifeHalting:
			return lifeEnded, true
		}
	case lifeInterrupt:
		switch s {
		case lifeStarting, lifeRestarting, lifeHaltingStart:
			return lifeHaltingStart, false
		case lifeRunning, lifeHalting:
			return lifeHalting, false
		default:
			return s, true
		}
	case lifeRestart:
		if s == lifeEnded || s == lifeStartFailed {
			return lifeRestarting, false
		}
	}
	return s, false
}

// lifecycle is the run the model drives: its state and what goes with it.
type lifecycle struct {
	state lifeState
	// gen numbers the starts; messages about an older run are dropped.
	gen int
	// events delivers the run's events, from started to closed.
	events <-chan event.Event
	// restart is the mode of the start r or F asked for, until the engine
	// answers; nil for the command line's run.
	restart *runctl.Mode
	// interrupts counts the interrupts sent to the run: the first halts
	// it, the second kills its phases.
	interrupts int
	// err is why Start refused (lifeStartFailed, and Result after quitting).
	err error
}

// newLifecycle is idle, or starting the command line's run when there is
// one to drive.
func newLifecycle(drive bool) lifecycle {
	if drive {
		return lifecycle{state: lifeStarting, gen: 1}
	}
	return lifecycle{state: lifeIdle}
}

// on moves the lifecycle by e and reports whether the program quits.
func (l *lifecycle) on(e lifeEvent) bool {
	next, quit := l.state.next(e)
	l.state = next
	return quit
}

// active reports whether a run was started and has not ended: its start is
// pending or its events are still coming.
func (l *lifecycle) active() bool {
	switch l.state {
	case lifeStarting, lifeRestarting, lifeRunning, lifeHaltingStart, lifeHalting:
		return true
	}
	return false
}

// awaitingStart reports whether Start was called and has not answered.
func (l *lifecycle) awaitingStart() bool {
	return l.state == lifeStarting || l.state == lifeRestarting || l.state == lifeHaltingStart
}

// halting reports whether the user interrupted the run and the program
// quits once it has ended.
func (l *lifecycle) halting() bool { return l.state == lifeHalting || l.state == lifeHaltingStart }
