package prompts

import (
	"fmt"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/failreport"
)

// writeRetry writes the "Previous attempt failed" section: the structured
// report of the failure this attempt retries, what to do about it, and the
// earlier failures not to repeat.
func writeRetry(b *strings.Builder, in Input) {
	last := in.Previous[len(in.Previous)-1]
	prev := last.Attempt
	if prev == 0 {
		prev = in.Attempt - 1
	}
	b.WriteString("\n## Previous attempt failed\n\n")
	if in.Continues {
		fmt.Fprintf(b, "Attempt %d of this phase failed. Its changes are already in this directory: continue on top of them, fix what failed and finish the phase; do not start over.", prev)
	} else {
		// Its worktree could not be kept: this one starts from the phase's
		// base, and the diff is the way back to what was done.
		fmt.Fprintf(b, "Attempt %d of this phase failed. This directory starts again from the phase's base, without its changes: use what it did where it helps, fix what failed and finish the phase.", prev)
	}
	if in.PreviousDiffPath != "" {
		fmt.Fprintf(b, " Its full diff is in `%s` (read it, do not change it).", in.PreviousDiffPath)
	}
	b.WriteString("\n\n### Failure report\n\n")
	writeReport(b, last)
	b.WriteString("### What to do\n\n")
	b.WriteString(Guidance(last) + "\n\n")
	if len(last.SuggestedActions) > 0 {
		b.WriteString("Suggested actions:\n\n")
		for _, a := range last.SuggestedActions {
			fmt.Fprintf(b, "- %s\n", a)
		}
		b.WriteString("\n")
	}
	if len(in.Previous) > 1 {
		b.WriteString("### Earlier attempts\n\nThese approaches already failed; do not repeat them:\n\n")
		for i, r := range in.Previous[:len(in.Previous)-1] {
			n := r.Attempt
			if n == 0 {
				n = i + 1
			}
			fmt.Fprintf(b, "- attempt %d: %s: %s\n", n, r.Type, oneLine(r.Message))
		}
		b.WriteString("\n")
	}
}

// writeReport writes a failure report as a markdown list with the gate's
// output excerpt in a code block.
func writeReport(b *strings.Builder, r failreport.Report) {
	item := func(name, value string) {
		if value != "" {
			fmt.Fprintf(b, "- %s: %s\n", name, value)
		}
	}
	item("Type", string(r.Type))
	item("Message", oneLine(r.Message))
	if r.GateCommand != "" {
		item("Failing gate", fmt.Sprintf("%s: `%s`", orDash(r.Gate), r.GateCommand))
	}
	item("Failing tests", strings.Join(r.FailingTests, ", "))
	item("Work completed", strings.Join(r.WorkCompleted, "; "))
	item("Files changed", strings.Join(r.FilesChanged, ", "))
	item("Blocked on", r.BlockedOn)
	item("Missing tool", r.MissingTool)
	b.WriteString("\n")
	if d := strings.TrimSpace(r.Details); d != "" {
		b.WriteString("Details:\n\n")
		writeFenced(b, "", d)
	}
	if out := strings.TrimSpace(r.GateOutput); out != "" {
		b.WriteString("Output of the failing gate (its end):\n\n")
		writeFenced(b, "", out)
	}
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func orDash(s string) string {
	if s == "" {
		return "gate"
	}
	return s
}
