// Package runctl is the life of a run, the same for every front end: it
// starts, resumes, restarts and interrupts the engine, turns signals into
// interrupts, and hands the run's events to a consumer through a
// subscription that ends with the run. The TUI drives it through Control;
// the headless printers through Headless. cli only parses flags and wires.
package runctl

import (
	"context"

	"github.com/autobuild-sh/autobuild/internal/engine"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// Mode says how a run begins.
type Mode int

// Modes.
const (
	// New starts the run the command line asked for.
	New Mode = iota
	// Resume continues from .autobuild/ (the TUI's `r`).
	Resume
	// Fresh deletes .autobuild/ and starts over (the TUI's `F`).
	Fresh
)

// String names the mode.
func (m Mode) String() string {
	switch m {
	case Resume:
		return "resume"
	case Fresh:
		return "fresh"
	default:
		return "new"
	}
}

// apply sets the engine's --resume and --fresh for the mode. The commit
// mode and the agents stay those of cfg: they were carried over from the
// run before (state.Carry) when the command line gave none.
func (m Mode) apply(cfg *engine.Config) {
	switch m {
	case Resume:
		cfg.Resume, cfg.Fresh = true, false
	case Fresh:
		cfg.Resume, cfg.Fresh = false, true
	}
}

// Control is what a front end that drives runs (the TUI) needs of the run
// control. The front end calls it only off its event loop, so a slow
// engine call never freezes the screen.
type Control interface {
	// Start begins a run in the background and returns its events; the
	// channel is closed after the run's terminal event.
	Start(ctx context.Context, mode Mode) (<-chan event.Event, error)
	// Interrupt asks the run for a graceful halt (docs/running.md, Ctrl-C);
	// a second call kills the phases at once. It is meant for the run
	// started last, even one whose Start has not returned yet, or not even
	// begun: that start is stopped (or the run as soon as it exists),
	// never the run before it, which has ended.
	Interrupt()
	// Snapshot reads the run's state files, for the halt or completion
	// screen.
	Snapshot() (*state.Snapshot, error)
}
