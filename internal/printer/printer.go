// Package printer holds the two headless consumers of the engine's events:
// readable lines for people (Plain) and one JSON object per line for
// machines (JSON). The TUI is the third consumer, in package tui.
package printer

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/sanitize"
)

// Plain prints one line per event: "[10:30:00] PHASE 2A FAILED - test_failure
// (attempt 1/2)". Output lines of agents and gates are printed only when
// Verbose is set; the attempt logs always have them.
type Plain struct {
	W       io.Writer
	Verbose bool
	// Local formats times in the local zone; tests set a fixed zone.
	Location *time.Location
}

// Print writes the event.
func (p *Plain) Print(e event.Event) {
	if e.Kind == event.PhaseOutput && !p.Verbose {
		return // before the timestamp: a flood of lines nobody sees costs nothing here
	}
	loc := p.Location
	if loc == nil {
		loc = time.Local
	}
	ts := e.Time.In(loc).Format("15:04:05")
	if e.Kind == event.PhaseOutput {
		fmt.Fprintf(p.W, "[%s]   %s | %s\n", ts, sanitize.Line(string(e.DisplayID)), sanitize.Line(e.Line))
		return
	}
	if e.Kind == event.AgentAction {
		// A tool call is progress worth seeing without -v: one short line.
		fmt.Fprintf(p.W, "[%s]   %s → %s\n", ts, sanitize.Line(string(e.DisplayID)), sanitize.Line(e.Line))
		return
	}
	line := event.Describe(e)
	if line == "" {
		return
	}
	fmt.Fprintf(p.W, "[%s] %s\n", ts, sanitize.Line(line))
	if e.Kind == event.PhaseFailed && e.Failure != nil && e.Failure.Details != "" {
		fmt.Fprintf(p.W, "           %s\n", indentTail(sanitize.Text(e.Failure.Details)))
	}
}

// JSON writes each event as one JSON object per line.
type JSON struct {
	enc *json.Encoder
}

// NewJSON returns a JSON printer writing to w.
func NewJSON(w io.Writer) *JSON { return &JSON{enc: json.NewEncoder(sanitize.JSONWriter{W: w})} }

// Print writes the event.
func (j *JSON) Print(e event.Event) { _ = j.enc.Encode(e) }

func indentTail(s string) string {
	out := []rune{}
	for _, r := range s {
		out = append(out, r)
		if r == '\n' {
			out = append(out, []rune("           ")...)
		}
	}
	return string(out)
}
