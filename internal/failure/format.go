package failure

import (
	"fmt"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"strings"
	"time"
)

// FormatReport renders a report as plain text, in the seeds' "Standard
// Format", for retry prompts, the TUI's failure pane and logs:
//
//	test gate failed: 1 test failing (TestAdd)
//
//	Type: test_failure
//	Attempt: 1
//	Duration: 12.5s
//	Retryable: yes
//
//	Work completed before failure:
//	  ✓ 3/5 tasks
//
//	Files changed: calc.go, calc_test.go
//	...
func FormatReport(r failreport.Report) string {
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }

	msg := r.Message
	if msg == "" {
		msg = string(r.Type)
	}
	line("%s", msg)
	line("")
	line("Type: %s", r.Type)
	if r.Attempt > 0 {
		line("Attempt: %d", r.Attempt)
	}
	line("Duration: %s", formatSeconds(r.DurationSeconds))
	retryable := yesNo(r.Retryable)
	if r.Retryable && r.Attempt >= 2 {
		// The type is retryable, but this attempt was the one retry: saying
		// "yes" alone reads as if autobuild would try again by itself.
		retryable = "yes, but this was the retry: fix the cause, then resume"
	}
	line("Retryable: %s", retryable)
	if r.Circular {
		line("Circular: yes (the same fix was tried again: needs a person)")
	}
	if r.Details != "" {
		line("")
		line("Details:")
		for _, l := range strings.Split(strings.TrimRight(r.Details, "\n"), "\n") {
			line("  %s", l)
		}
	}
	line("")
	line("Work completed before failure:")
	if len(r.WorkCompleted) == 0 {
		line("  none")
	}
	for _, w := range r.WorkCompleted {
		line("  ✓ %s", w)
	}
	line("")
	files := "none"
	if len(r.FilesChanged) > 0 {
		files = strings.Join(r.FilesChanged, ", ")
	}
	line("Files changed: %s", files)
	if r.BlockedOn != "" {
		line("")
		line("Blocked on: %s", r.BlockedOn)
	}
	if r.MissingTool != "" {
		line("Missing tool: %s", r.MissingTool)
	}
	if len(r.FailingTests) > 0 {
		line("Failing tests: %s", strings.Join(r.FailingTests, ", "))
	}
	if r.Gate != "" || r.GateCommand != "" {
		line("")
		gate := r.Gate
		if gate == "" {
			gate = "gate"
		}
		if r.GateCommand != "" {
			line("Failing gate: %s (%s)", gate, r.GateCommand)
		} else {
			line("Failing gate: %s", gate)
		}
		if r.GateOutput != "" {
			line("Output (tail):")
			for _, l := range strings.Split(r.GateOutput, "\n") {
				line("  | %s", l)
			}
		}
	}
	if len(r.SuggestedActions) > 0 {
		line("")
		line("Suggested recovery actions:")
		for _, a := range r.SuggestedActions {
			line("  • %s", a)
		}
	}
	return b.String()
}

// formatSeconds renders a duration in seconds as Go does ("12.5s", "30m0s").
func formatSeconds(s float64) string {
	d := time.Duration(s * float64(time.Second))
	if d >= time.Minute {
		return d.Round(time.Second).String()
	}
	return d.Round(100 * time.Millisecond).String()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
