package tui

import (
	"context"
	"time"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/runctl"
	"github.com/autobuild-sh/autobuild/internal/watch"
)

// PhaseInfo is what the run view shows for a phase before any event about it
// arrives.
type PhaseInfo struct {
	ID        phaseid.ID
	DisplayID phaseid.Display
	Name      string
	DependsOn []phaseid.ID
	// Batch is 1-based.
	Batch int
}

// BatchesFromPlan turns plan batches into Options.Batches.
func BatchesFromPlan(batches []plan.Batch) [][]PhaseInfo {
	out := make([][]PhaseInfo, 0, len(batches))
	for _, b := range batches {
		infos := make([]PhaseInfo, 0, len(b.Phases))
		for _, p := range b.Phases {
			infos = append(infos, PhaseInfo{ID: p.ID, DisplayID: p.DisplayID, Name: p.Name, DependsOn: p.DependsOn, Batch: b.Index})
		}
		out = append(out, infos)
	}
	return out
}

// DefaultLogLines is how many lines of each phase's output the TUI keeps in
// memory; the full output is in the phase's log file.
const DefaultLogLines = 5000

// Options configure a Model. Live mode sets Controller (and Batches); watch
// mode sets Watch and ReadOnly.
type Options struct {
	// Title is the plan's title; PlanPath the plan file.
	Title, PlanPath string
	// CommitMode and Agent are shown in the header; so is Schedule when it
	// is not batches. Agent names every agent of the run, in --agent order,
	// joined by ", " ("claude, codex").
	CommitMode, Agent, Schedule string
	// Batches are the plan's phases, for the initial pending rows (nil in
	// watch mode, where the state files name the phases).
	Batches [][]PhaseInfo
	// Controller runs the engine (live mode); nil in watch mode.
	Controller runctl.Control
	// Mode is how the first run starts in live mode (runctl.New unless the
	// command line said --resume or --fresh).
	Mode runctl.Mode
	// Context is passed to Controller.Start; nil means context.Background.
	Context context.Context
	// Watch delivers state updates in watch mode.
	Watch <-chan watch.Update
	// ReadOnly disables every key that would change the run (watch mode).
	ReadOnly bool
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Commands are the command lines that resume the run or start it
	// over (runctl builds them): the halt summary, r and F in read-only
	// mode, and c offer them.
	Commands runctl.Commands
	// StateDir is the state directory as the user should read it
	// (".autobuild/").
	StateDir string
	// FixStep is the halt summary's first resume instruction, when the
	// run's setup knows the fix (the demo).
	FixStep string
	// Dir is the directory being watched, shown while no run exists yet.
	Dir string
	// Root is the repository whose .autobuild/ holds the run: the review
	// screen reads a phase's review there and writes decisions there.
	// "" is the current directory.
	Root string
	// LogLines is how many output lines to keep per phase (DefaultLogLines
	// when 0).
	LogLines int
	// NoColor renders without colors (NO_COLOR); the model also drops colors
	// when the terminal's color profile has none.
	NoColor bool
	// Notice is shown in the footer from the first frame, until a key is
	// pressed: the plan's warnings, which the screen would otherwise hide.
	Notice string
	// Alert, when set, gives for an event what to write to the terminal
	// as it is (a bell and an OSC 9 notification, notify.Sequence), or "".
	Alert func(event.Event) string
	// ColorFGBG is $COLORFGBG ("15;0": foreground;background), which says
	// whether the background is dark when the terminal does not answer the
	// background-color query; its answer wins when it comes.
	ColorFGBG string
	// FixCommand is the command of FixStep alone (the demo's fix): shown
	// whole under the halt box, and the first thing `c` copies.
	FixCommand string
	// ExitOnComplete ends the UI once a run completes, after its summary
	// (the command prints it on the terminal); a halt still waits for a key.
	ExitOnComplete bool
	// Mouse turns on mouse reporting: the wheel scrolls the log and the
	// summary. `m` toggles it, giving the mouse back to the terminal for
	// selecting text.
	Mouse bool
}
