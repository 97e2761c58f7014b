package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/spinner"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/human"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// spinnerFrames turn while a phase runs.
var spinnerFrames = spinner.MiniDot.Frames

// headerView is the header: the title line (plan, commit mode, agent,
// usage, elapsed) and the progress line (run state, counts by status,
// progress bar). It is always headerHeight lines.
type headerView struct {
	styles *Styles
	width  int

	// What it shows, set by the model before it renders.
	title      string // the plan's title, or its path
	run        *runInfo
	phases     *phaseSet
	state      string // the one word describing the run
	stateStyle lipgloss.Style
	now        time.Time
}

// SetSize sets the header's width.
func (v *headerView) SetSize(w int) { v.width = w }

// Render draws the two lines.
func (v *headerView) Render() []string {
	w := v.width
	var right []string
	// The segments that give way, in this order, when a budget or a
	// quota would leave no room for the program's name (at[seg] is its
	// index in right).
	const tokensSeg, commitSeg, agentSeg = "tokens", "commit", "agent"
	at := map[string]int{}
	if r := v.phases.firstWaiting(); r != nil {
		right = append(right, waitText(r, v.now))
	}
	if v.run.commitMode != "" {
		at[commitSeg] = len(right)
		right = append(right, "commit "+v.run.commitMode)
	}
	if s := v.run.schedule; s != "" && s != string(state.ScheduleBatches) {
		// Batches, the default, goes unsaid: its header is as it was.
		right = append(right, "schedule "+s)
	}
	if v.run.agent != "" {
		label := "agent "
		if strings.Contains(v.run.agent, ", ") {
			label = "agents "
		}
		at[agentSeg] = len(right)
		right = append(right, label+v.run.agent)
	}
	if u := v.run.usage; u != nil {
		at[tokensSeg] = len(right)
		if v.run.budget != nil {
			// The budget's segment says the spend: once is enough.
			right = append(right, tokensShort(u))
		} else {
			right = append(right, usageShort(u))
		}
	}
	if b := v.run.budget; b != nil {
		right = append(right, budgetShort(b))
	}
	if q := v.run.quota; q != nil && (q.ResetsAt == nil || v.now.Before(*q.ResetsAt)) {
		right = append(right, quotaShort(v.run.quotaAgent, q))
	}
	if e := v.elapsed(); e != "" {
		right = append(right, e)
	}
	rightText := strings.Join(right, " · ")
	if v.run.budget != nil || v.run.quota != nil {
		// Too wide to leave the name of the program (a budget and a
		// quota at 80 columns): the token counts go first, then the
		// commit mode and the agent.
		need := len("autobuild ") // and a space
		if v.title != "" {
			need = width("autobuild · T… ") // a title's first letter
		}
		for _, seg := range []string{tokensSeg, commitSeg, agentSeg} {
			i, ok := at[seg]
			if !ok || width(rightText)+need <= w {
				continue
			}
			right[i] = ""
			rightText = strings.Join(slices.DeleteFunc(slices.Clone(right), func(s string) bool { return s == "" }), " · ")
		}
	}
	left := "autobuild"
	if v.title != "" {
		left += " · " + v.title
	}
	line1 := spread(left, rightText, w)
	// Style after laying out, so widths are computed on plain text.
	if strings.HasPrefix(line1, "autobuild") {
		line1 = v.styles.Title.Render("autobuild") + line1[len("autobuild"):]
	}
	return []string{line1, v.progressLine(w)}
}

// usageShort is the run's usage in the header: "12.3k in · 4.1k out ·
// $0.42" (the cost where the CLIs price it).
func usageShort(u *state.Usage) string {
	s := tokensShort(u)
	if u.CostUSD > 0 {
		s += " · " + state.Cost(u.CostUSD)
	}
	return s
}

// tokensShort is the run's tokens: "12.3k in · 4.1k out".
func tokensShort(u *state.Usage) string {
	return state.Tokens(u.InputTokens+u.CacheReadTokens+u.CacheWriteTokens) + " in · " + state.Tokens(u.OutputTokens) + " out"
}

// budgetShort is the spend against the budget: "$3.20 of $5.00 budget",
// or "$3.20 spent, $2.00 a phase" with only a phase's budget.
func budgetShort(b *event.Budget) string {
	if b.MaxCostUSD > 0 {
		return state.Cost(b.SpentUSD) + " of " + state.Cost(b.MaxCostUSD) + " budget"
	}
	return state.Cost(b.SpentUSD) + " spent, " + state.Cost(b.MaxPhaseCostUSD) + " a phase"
}

// quotaShort is an agent's quota headroom: "claude 91% used · 2 at once"
// (the phases at once, when the run lowered them).
func quotaShort(agentName string, q *event.Quota) string {
	s := agentName + " "
	switch {
	case q.Utilization != nil:
		s += fmt.Sprintf("%.0f%% used", *q.Utilization*100)
	case q.Status == "allowed":
		s += "quota ok"
	default:
		s += "quota " + strings.ReplaceAll(strings.TrimPrefix(q.Status, "allowed_"), "_", " ")
	}
	if q.Parallel > 0 && q.Parallel < q.MaxParallel {
		s += fmt.Sprintf(" · %d at once", q.Parallel)
	}
	return s
}

// elapsed is the run's wall time so far, or its total once it ended.
func (v *headerView) elapsed() string {
	if v.run.started.IsZero() {
		return ""
	}
	end := v.now
	if !v.run.ended.IsZero() {
		end = v.run.ended
	}
	return human.Duration(max(0, end.Sub(v.run.started).Seconds()))
}

// runState is the one word describing the run in the header.
func (m *Model) runState() (string, lipgloss.Style) {
	s := m.styles
	switch {
	case m.life.halting():
		return "halting", s.Blocked
	case m.life.state == lifeRestarting:
		return "restarting", s.Running
	case m.life.state == lifeStarting && m.run.status == "":
		return "starting", s.Running
	case m.life.state == lifeStartFailed && m.run.status == "":
		return "not started", s.Failed
	}
	switch m.run.status {
	case state.RunRunning:
		return "running", s.Running
	case state.RunHalted:
		return "halted", s.Failed
	case state.RunInterrupted:
		return "interrupted", s.Blocked
	case state.RunComplete:
		return "complete", s.Complete
	}
	if m.opts.Watch != nil {
		return "waiting", s.Pending
	}
	return "starting", s.Running
}

// statusCount is one "3 done" item of the progress line.
type statusCount struct {
	st    rowStatus
	label string
}

var countOrder = []statusCount{
	{stComplete, "done"}, {stRunning, "running"}, {stAwaiting, "to review"}, {stRetrying, "retrying"}, {stFailed, "failed"},
	{stBlocked, "blocked"}, {stInterrupted, "interrupted"}, {stPending, "pending"}, {stSkipped, "skipped"},
}

func (v *headerView) progressLine(w int) string {
	var counts [stAwaiting + 1]int
	done := 0
	for _, r := range v.phases.rows {
		counts[r.status]++
		if r.done() {
			done++
		}
	}
	parts := []string{v.stateStyle.Render(v.state)}
	plainW := ansi.StringWidth(v.state)
	for _, c := range countOrder {
		if n := counts[c.st]; n > 0 {
			text := fmt.Sprintf("%d %s", n, c.label)
			parts = append(parts, v.styles.status(c.st).Render(text))
			plainW += 3 + ansi.StringWidth(text)
		}
	}
	line := strings.Join(parts, v.styles.Dim.Render(" · "))
	total := len(v.phases.rows)
	frac := fmt.Sprintf(" %d/%d", done, total)
	barW := min(30, w-plainW-2-len(frac))
	if total == 0 || barW < 8 {
		return truncateStyled(line, w)
	}
	full := barW * done / total
	bar := v.styles.BarFull.Render(strings.Repeat("█", full)) + v.styles.BarEmpty.Render(strings.Repeat("░", barW-full))
	return padRight(line, w-barW-len(frac)) + bar + frac
}

// truncateStyled cuts a styled string to w cells.
func truncateStyled(s string, w int) string {
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// status is the color of a status.
func (s *Styles) status(st rowStatus) lipgloss.Style {
	switch st {
	case stRunning, stRetrying:
		return s.Running
	case stComplete:
		return s.Complete
	case stFailed:
		return s.Failed
	case stBlocked, stInterrupted, stAwaiting:
		return s.Blocked
	case stSkipped:
		return s.Skipped
	}
	return s.Pending
}

// glyph is a status's one-cell symbol; running phases get the spinner at
// its frame.
func glyph(st rowStatus, frame int) string {
	switch st {
	case stRunning:
		return spinnerFrames[frame%len(spinnerFrames)]
	case stRetrying:
		return "↻"
	case stComplete:
		return "✓"
	case stFailed:
		return "✗"
	case stBlocked:
		return "⊘"
	case stSkipped:
		return "⏭"
	case stInterrupted:
		return "⏸"
	case stAwaiting:
		return "◆"
	}
	return "○"
}
