package tui

import (
	"context"
	"time"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/watch"
)

// StartMode says how Controller.Start begins a run.
type StartMode int

// Start modes.
const (
	// StartNew starts the run the command line asked for.
	StartNew StartMode = iota
	// StartResume continues from .autobuild/ (the `r` key).
	StartResume
	// StartFresh deletes .autobuild/ and starts over (the `F` key).
	StartFresh
)

// String names the mode.
func (m StartMode) String() string {
	switch m {
	case StartResume:
		return "resume"
	case StartFresh:
		return "fresh"
	default:
		return "new"
	}
}

// Controller runs the engine for the live TUI. The model calls it only from
// tea.Cmds, never from Update, so a slow engine call cannot freeze the screen.
type Controller interface {
	// Start begins a run in the background and returns its events; the
	// channel is closed after the run's terminal event.
	Start(ctx context.Context, mode StartMode) (<-chan event.Event, error)
	// Interrupt asks the run for a graceful halt (docs/running.md, Ctrl-C); a
	// second call kills the phases at once. It is meant for the run the
	// model started last, even one whose Start has not returned yet, or
	// not even begun: the controller then stops that start (or the run as
	// soon as it exists), never the run before it, which has ended.
	Interrupt()
	// Snapshot reads the run's state files, for the halt or completion
	// screen.
	Snapshot() (*state.Snapshot, error)
}

// PhaseInfo is what the run view shows for a phase before any event about it
// arrives.
type PhaseInfo struct {
	ID        string
	DisplayID string
	Name      string
	DependsOn []string
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
	// is not batches.
	CommitMode, Agent, Schedule string
	// Batches are the plan's phases, for the initial pending rows (nil in
	// watch mode, where the state files name the phases).
	Batches [][]PhaseInfo
	// Controller runs the engine (live mode); nil in watch mode.
	Controller Controller
	// Mode is how the first run starts in live mode (StartNew unless the
	// command line said --resume or --fresh).
	Mode StartMode
	// Context is passed to Controller.Start; nil means context.Background.
	Context context.Context
	// Watch delivers state updates in watch mode.
	Watch <-chan watch.Update
	// ReadOnly disables every key that would change the run (watch mode).
	ReadOnly bool
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// ResumeHint is the command line shown when `r` or `F` is pressed in
	// read-only mode ("autobuild plan.md --resume"); empty falls back to
	// ResumeCommand.
	ResumeHint string
	// ResumeCommand and FreshCommand are the command lines the halt summary
	// offers; StateDir is the state directory as the user should read it
	// (".autobuild/").
	ResumeCommand, FreshCommand, StateDir string
	// FixStep is the halt summary's first resume instruction, when the
	// run's setup knows the fix (the demo).
	FixStep string
	// Dir is the directory being watched, shown while no run exists yet.
	Dir string
	// LogLines is how many output lines to keep per phase (DefaultLogLines
	// when 0).
	LogLines int
	// NoColor renders without colors (NO_COLOR); the model also drops colors
	// when the terminal's color profile has none.
	NoColor bool
	// Notice is shown in the footer from the first frame, until a key is
	// pressed: the plan's warnings, which the screen would otherwise hide.
	Notice string
}
