// Package summary renders the boxed halt summary of docs/running.md and the
// completion summary from the state files alone, so the plain printer, the
// TUI and `autobuild watch` all show the same text.
package summary

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/autobuild-sh/autobuild/internal/clip"
	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/human"
	"github.com/autobuild-sh/autobuild/internal/line"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// Input is what a summary is rendered from.
type Input struct {
	Run *state.Run
	// Phases in plan order.
	Phases []*state.Phase
	// StateDir is the state directory as the user should read it (".autobuild/").
	StateDir string
	// ResumeCommand and FreshCommand are the exact command lines to offer.
	ResumeCommand string
	FreshCommand  string
	// FixStep, when set, is the first resume instruction: a fix the run's
	// setup already knows (the demo's), before the failures' own advice.
	FixStep string
}

// Render returns the summary for the run's status, width columns wide (at
// least 40): a halt summary for a halted or interrupted run, else a
// completion summary.
func Render(in Input, width int) string {
	in.ResumeCommand = ResumeCommand(in)
	if in.Run != nil && in.Run.Status == state.RunComplete {
		return complete(in, width)
	}
	return halted(in, width)
}

func halted(in Input, width int) string {
	b := newBox(width)
	title, reason := "AUTOBUILD HALTED", "the run stopped"
	if in.Run != nil {
		if in.Run.Status == state.RunInterrupted {
			title = "AUTOBUILD INTERRUPTED"
		}
		if in.Run.Status == state.RunRunning {
			title = "AUTOBUILD RUNNING"
		}
		if in.Run.HaltReason != "" {
			reason = in.Run.HaltReason
		}
	}
	b.rule("╔", "═", "╗")
	b.center(title)
	b.rule("╠", "═", "╣")
	b.blank()
	b.text("Reason: "+reason, 8)
	if u := state.RunUsage(in.Phases); u != nil {
		b.text("Usage: "+u.Summary(), 7)
	}
	scheduleLine(b, in.Run)
	verifyLine(b, in.Run)

	groups := byStatus(in.Phases)
	if ps := groups[state.PhaseComplete]; len(ps) > 0 {
		b.section("COMPLETED PHASES")
		for _, p := range ps {
			completedRow(b, p)
		}
	}
	if ps := groups[state.PhaseSkipped]; len(ps) > 0 {
		b.section("SKIPPED PHASES")
		for _, p := range ps {
			b.dotted(label(p), "skipped")
		}
	}
	var reports []failreport.Report
	if ps := groups[state.PhaseFailed]; len(ps) > 0 {
		b.section(human.Plural(len(ps), "FAILED PHASE", "FAILED PHASES"))
		for _, p := range ps {
			failedRow(b, p)
			if p.Error != nil {
				reports = append(reports, *p.Error)
			}
		}
	}
	if cause, ok := failure.Systemic(reports); ok {
		b.section("SYSTEMIC CAUSE")
		b.text(cause, 0)
	}
	budgetSection(b, in)
	historyNote(b, in.Run)
	if ps := groups[state.PhaseBlocked]; len(ps) > 0 {
		b.section("BLOCKED PHASES")
		for _, p := range ps {
			b.dotted(label(p), "blocked")
			if len(p.BlockedBy) > 0 {
				b.text("  Blocked by: "+phaseid.Join(p.BlockedBy, ", "), 14)
			}
		}
	}
	notRun := append(append(groups[state.PhasePending], groups[state.PhaseRunning]...), groups[state.PhaseAwaitingReview]...)
	if len(notRun) > 0 {
		b.section("NOT RUN YET")
		for _, p := range notRun {
			status := "pending"
			if last := lastAttempt(p); last != nil && last.Outcome == state.OutcomeInterrupted {
				status = "interrupted"
			}
			if p.Status == state.PhaseAwaitingReview {
				// Its work is kept: the resume asks for the review again.
				status = "awaiting review"
			}
			b.dotted(label(p), status)
		}
	}

	b.section("STATE PRESERVED")
	dir := in.StateDir
	if dir == "" {
		dir = ".autobuild/"
	}
	b.text("Directory: "+dir, 11)
	b.text(fmt.Sprintf("State files: %d phases", len(in.Phases)), 0)
	b.text("Logs: "+filepath.ToSlash(filepath.Join(dir, "logs"))+"/", 6)

	b.section("RESUME INSTRUCTIONS")
	n := 1
	if t := haltType(in.Run); t == failreport.BudgetExceeded || t == failreport.RedBase {
		// The run's budget, or its red base, is no phase's failure: its
		// advice comes first ("fix the base first").
		reports = append([]failreport.Report{{SuggestedActions: failure.Suggest(failreport.Report{Type: t})}}, reports...)
	}
	steps := actions(reports)
	if in.FixStep != "" {
		steps = append([]string{in.FixStep}, steps...)
	}
	for _, a := range steps {
		b.text(fmt.Sprintf("%d. %s", n, sentence(a)), 3)
		n++
	}
	if in.ResumeCommand != "" {
		b.text(fmt.Sprintf("%d. Run: %s", n, in.ResumeCommand), 3)
		// What a resume does, as README and docs/failures.md say it.
		b.text("   (a failed phase: two attempts again; one failing as before halts at once)", 3)
	}
	if in.FreshCommand != "" {
		b.blank()
		b.text("To start fresh: "+in.FreshCommand, 2)
	}
	b.blank()
	b.rule("╚", "═", "╝")
	return b.String()
}

// haltType is the type the run halted for, "" for none.
func haltType(r *state.Run) failreport.Type {
	if r == nil {
		return ""
	}
	return r.HaltType
}

func complete(in Input, width int) string {
	b := newBox(width)
	b.rule("╔", "═", "╗")
	b.center("AUTOBUILD COMPLETE")
	b.rule("╠", "═", "╣")
	b.blank()
	commits, total := 0, 0.0
	for _, p := range in.Phases {
		switch p.Status {
		case state.PhaseSkipped:
			b.dotted(label(p), "skipped")
		default:
			completedRow(b, p)
			if p.Commit != nil && p.Commit.SHA != "" {
				commits++
			}
			total += p.Timestamps.DurationSeconds
		}
	}
	var strategy line.Strategy // how the run's commit mode lands, nil when it names none
	if in.Run != nil {
		var err error
		if strategy, err = line.StrategyFor(in.Run.CommitMode); err != nil {
			// A run recorded without a mode reads as auto's.
			strategy, _ = line.StrategyFor(state.CommitAuto)
		}
	}
	if strategy != nil {
		commits = strategy.Commits(*in.Run, commits)
	}
	b.blank()
	elapsed := ""
	if in.Run != nil && in.Run.Finished != nil {
		elapsed = ", wall time " + human.Duration(in.Run.WallSeconds())
	}
	b.text(fmt.Sprintf("%s, %s%s.", human.Count(len(in.Phases), "phase", "phases"),
		human.Count(commits, "commit", "commits"), elapsed), 0)
	if u := state.RunUsage(in.Phases); u != nil {
		b.text("Usage: "+u.Summary()+".", 7)
	}
	if w := workersLine(in.Phases); w != "" {
		b.text(w, 9)
	}
	scheduleLine(b, in.Run)
	verifyLine(b, in.Run)
	budgetSection(b, in)
	if strategy != nil {
		if where := strategy.Summary(*in.Run, in.StateDir); where != "" {
			b.text(where, 2)
		}
	}
	historyNote(b, in.Run)
	b.blank()
	b.rule("╚", "═", "╝")
	return b.String()
}

// scheduleLine names the eager schedule; the default (batches) goes
// unsaid, so a batch run's box is as it always was.
func scheduleLine(b *box, run *state.Run) {
	if run == nil || run.Schedule.OrDefault() == state.ScheduleBatches {
		return
	}
	b.text("Schedule: "+string(run.Schedule)+" (each phase started once its dependencies had landed)", 10)
}

// historyNote adds what the history across runs says about this run's
// failures (see history.Note), when it says something.
func historyNote(b *box, run *state.Run) {
	if run == nil || run.HistoryNote == "" {
		return
	}
	b.section("HISTORY")
	b.text(sentence(run.HistoryNote)+" (autobuild report for more).", 0)
}

func completedRow(b *box, p *state.Phase) {
	status := "complete"
	if d := p.Timestamps.DurationSeconds; d > 0 {
		status = "complete " + human.Duration(d)
	}
	b.dotted(label(p), status)
	if who := doneBy(p); who != "" {
		b.text("  Done by: "+who, 11)
	}
	usageRow(b, p)
	if p.Commit == nil {
		return
	}
	switch {
	case p.Commit.SHA != "":
		b.text("  Commit: "+clip.SHA(p.Commit.SHA)+" "+clip.FirstLine(p.Commit.Message), 10)
	case p.Commit.Message != "" && p.Commit.HasChanges():
		b.text("  Message: "+clip.FirstLine(p.Commit.Message), 11)
	default:
		b.text("  No changes to commit", 2)
	}
}

// usageRow is a phase's tokens and cost over its attempts, when its agent
// reported any.
func usageRow(b *box, p *state.Phase) {
	if u := p.TotalUsage(); u != nil {
		b.text("  Usage: "+u.Summary(), 9)
	}
}

func failedRow(b *box, p *state.Phase) {
	b.dotted(label(p), "FAILED")
	max := p.MaxAttempts
	if max == 0 {
		max = 2
	}
	attempts := fmt.Sprintf("  Attempts: %d/%d", p.Attempt, max)
	switch {
	case p.Error != nil && p.Error.Circular:
		// Not "not retryable": its type is; this attempt repeated an
		// earlier failure (before a resume too), which a retry or a resume
		// without a fix repeats again.
		attempts += " (same fix tried again: needs a person)"
	case p.Error != nil && !p.Error.Retryable:
		attempts += " (not retryable)"
	}
	b.text(attempts, 12)
	usageRow(b, p)
	if r := p.Error; r != nil {
		b.text("  Error: "+string(r.Type)+onWorker(p), 9)
		details := r.Message
		if r.Details != "" {
			details += "\n" + r.Details
		}
		b.text("  Details: "+details, 11)
		if len(r.FailingTests) > 0 {
			b.text("  Failing tests: "+strings.Join(r.FailingTests, ", "), 17)
		}
		if r.GateCommand != "" {
			b.text("  Gate: "+r.Gate+" ("+r.GateCommand+")", 8)
		}
		if r.GateOutput != "" {
			b.text("  Output (last lines):", 2)
			for _, l := range clip.LastLines(r.GateOutput, 6) {
				b.text("    "+l, 4)
			}
		}
	}
	if w := onWorker(p); w != "" && p.Error == nil {
		b.text("  Last attempt"+w, 4)
	}
	if last := lastAttempt(p); last != nil && last.LogPath != "" {
		b.text("  Log: "+last.LogPath, 7)
	}
	if p.Worktree != "" {
		b.text("  Work of the failed attempt: "+p.Worktree, 4)
	}
}

// actions merges the suggested actions of every failure, first seen first.
func actions(reports []failreport.Report) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range reports {
		for _, a := range r.SuggestedActions {
			if !seen[a] {
				seen[a] = true
				out = append(out, a)
			}
		}
	}
	return out
}

func byStatus(phases []*state.Phase) map[state.PhaseStatus][]*state.Phase {
	m := map[state.PhaseStatus][]*state.Phase{}
	for _, p := range phases {
		m[p.Status] = append(m[p.Status], p)
	}
	return m
}

func label(p *state.Phase) string {
	id := string(p.DisplayID.Or(p.PhaseID))
	if p.PhaseName == "" {
		return "Phase " + id
	}
	return "Phase " + id + ": " + p.PhaseName
}

func lastAttempt(p *state.Phase) *state.Attempt {
	if len(p.Attempts) == 0 {
		return nil
	}
	return &p.Attempts[len(p.Attempts)-1]
}

// Duration formats seconds as "45s", "3m12s" or "1h02m".
// sentence starts s with a capital letter: the failures' suggested actions
// are written as list items, the resume instructions as numbered steps.
func sentence(s string) string {
	if s == "" {
		return s
	}
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
}
