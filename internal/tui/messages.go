package tui

import (
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/watch"
)

// Messages carry the results of Cmds back into Update. Those about a run
// carry its generation: after `r` starts a new run, late messages of the
// previous one are recognized and dropped.

// startedMsg says Controller.Start succeeded; ch delivers the run's events.
type startedMsg struct {
	gen int
	ch  <-chan event.Event
}

// startFailedMsg says Controller.Start refused (lock held, dirty tree, ...).
type startFailedMsg struct {
	gen int
	err error
}

// eventsMsg is a batch of events read from the run's channel at once, so a
// flood of output lines costs one Update. closed is set when the channel was
// closed (the run is over).
type eventsMsg struct {
	gen    int
	events []event.Event
	closed bool
}

// snapshotMsg carries the state files read after the run ended.
type snapshotMsg struct {
	gen  int
	snap *state.Snapshot
	err  error
}

// watchMsg carries one update of `autobuild watch`; closed is set when the
// watcher stopped.
type watchMsg struct {
	update watch.Update
	closed bool
}

// tickMsg advances the spinner and the elapsed times.
type tickMsg struct{}
