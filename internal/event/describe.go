package event

import (
	"fmt"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/clip"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// Describe renders an event as one line without a timestamp, the form used by
// the execution log and the plain printer:
//
//	PHASE 2A FAILED - test_failure (attempt 1/2)
//
// It returns "" for output lines, which are not logged line by line.
func Describe(e Event) string {
	line := describe(e)
	if line != "" && e.Usage != nil {
		line += " [" + e.Usage.Summary() + "]"
	}
	return line
}

func describe(e Event) string {
	id := e.DisplayID.Or(e.PhaseID)
	attempt := ""
	if e.Attempt > 0 {
		if e.MaxAttempts > 0 {
			attempt = fmt.Sprintf(" (attempt %d/%d)", e.Attempt, e.MaxAttempts)
		} else {
			attempt = fmt.Sprintf(" (attempt %d)", e.Attempt)
		}
	}
	switch e.Kind {
	case RunStarted:
		return "RUN STARTED - " + e.Line
	case BatchStarted:
		return fmt.Sprintf("BATCH %d STARTED - phases %s", e.Batch, phaseid.Join(e.Phases, ", "))
	case PhaseSkipped:
		return fmt.Sprintf("PHASE %s SKIPPED - %s", id, e.Line)
	case PhaseStarted:
		return fmt.Sprintf("PHASE %s STARTED - %s%s, agent %s", id, e.PhaseName, attempt, e.Agent)
	case PhaseWorker:
		return fmt.Sprintf("PHASE %s ON WORKER - %s%s", id, e.Line, attempt)
	case WorktreeReady:
		if e.PhaseID == "" {
			return "WORKTREES - " + e.Line
		}
		return fmt.Sprintf("PHASE %s WORKTREE - %s", id, e.Line)
	case GateResult:
		if e.Gate == nil {
			return ""
		}
		status := gateStatus(e.Gate.Status)
		if e.Gate.Status == state.GatePassed && e.Gate.KnownFailures > 0 {
			// --allow-red-base: it failed, with only tests the base failed already.
			status += fmt.Sprintf(" (only the base's known failures: %d)", e.Gate.KnownFailures)
		}
		return fmt.Sprintf("PHASE %s GATE %s %s - %s", id, e.Gate.Kind, status, e.Gate.Command)
	case PhaseFailed:
		msg := ""
		if e.Failure != nil {
			msg = string(e.Failure.Type)
			if e.Failure.Message != "" {
				msg += ": " + e.Failure.Message
			}
		}
		return fmt.Sprintf("PHASE %s FAILED - %s%s", id, msg, attempt)
	case PhaseRetrying:
		return fmt.Sprintf("PHASE %s RETRYING%s - %s", id, attempt, e.Line)
	case PhaseWaiting:
		return fmt.Sprintf("PHASE %s WAITING%s - %s", id, attempt, e.Line)
	case PhaseInterrupted:
		return fmt.Sprintf("PHASE %s INTERRUPTED%s", id, attempt)
	case PhaseCompleted:
		return fmt.Sprintf("PHASE %s COMPLETE%s in %.1fs", id, attempt, e.DurationSeconds)
	case PhaseVerifying:
		return fmt.Sprintf("PHASE %s VERIFYING - %s", id, e.Line)
	case PhaseIntegrated:
		if e.Commit != nil && e.Commit.SHA != "" {
			return fmt.Sprintf("PHASE %s INTEGRATED - %s %s", id, clip.SHA(e.Commit.SHA), clip.FirstLine(e.Commit.Message))
		}
		return fmt.Sprintf("PHASE %s INTEGRATED - %s", id, e.Line)
	case PhaseBlocked:
		return fmt.Sprintf("PHASE %s BLOCKED - by %s", id, phaseid.Join(e.BlockedBy, ", "))
	case PhaseAwaitingReview:
		return fmt.Sprintf("PHASE %s AWAITING REVIEW%s - %s", id, attempt, e.Line)
	case PhaseReviewed:
		return fmt.Sprintf("PHASE %s REVIEWED - %s", id, e.Line)
	case PhaseSteered:
		return fmt.Sprintf("PHASE %s STEERED%s - %s", id, attempt, e.Line)
	case AgentQuota:
		return "QUOTA " + e.Agent + " - " + QuotaText(e.Quota)
	case BudgetReached:
		if e.PhaseID != "" {
			return fmt.Sprintf("PHASE %s BUDGET REACHED - %s", id, e.Line)
		}
		return "BUDGET REACHED - " + e.Line
	case RunHalted:
		return "RUN HALTED - " + e.Line
	case RunInterrupted:
		return "RUN INTERRUPTED - " + e.Line
	case RunComplete:
		return "RUN COMPLETE - " + e.Line
	}
	return ""
}

// gateStatus names a gate's status in a log line: PASSED, FAILED, NOT RUN,
// and "NOT RUN (tool missing)" for a detected gate whose tool is not
// installed (docs/running.md).
func gateStatus(status string) string {
	if status == state.GateMissing {
		return "NOT RUN (tool missing)"
	}
	return strings.ToUpper(strings.ReplaceAll(status, "_", " "))
}

// QuotaText is an agent's quota in a few words: "five_hour 86% used,
// resets 03:10 · 1 phase at a time".
func QuotaText(q *Quota) string {
	if q == nil {
		return ""
	}
	var parts []string
	if q.Type != "" {
		parts = append(parts, strings.ReplaceAll(q.Type, "_", " "))
	}
	switch {
	case q.Utilization != nil:
		parts = append(parts, fmt.Sprintf("%.0f%% used", *q.Utilization*100))
	case q.Status != "":
		parts = append(parts, strings.ReplaceAll(q.Status, "_", " "))
	}
	if q.ResetsAt != nil {
		parts = append(parts, "resets "+q.ResetsAt.Local().Format("15:04"))
	}
	line := strings.Join(parts, ", ")
	if q.Parallel > 0 && q.Parallel < q.MaxParallel {
		line += fmt.Sprintf(" · at most %d %s at once", q.Parallel, map[bool]string{true: "phase", false: "phases"}[q.Parallel == 1])
	}
	return line
}
