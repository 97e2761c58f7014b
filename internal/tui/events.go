package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/autobuild-sh/autobuild/internal/budget"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// runInfo is what the header knows about the run as a whole.
type runInfo struct {
	title, commitMode, agent string
	// schedule is the run's schedule; the header names it unless it is
	// batches (or not known).
	schedule string
	// planPath and agents are the run's plan and agents as run.json names
	// them (watch mode), for the hints.
	planPath       string
	agents         []string
	started, ended time.Time
	// status is "" before the run started, then running, then the terminal
	// status.
	status     state.RunStatus
	haltReason string
	// stopping: a halt was decided (a failure not retried, a budget
	// reached): no retry starts any more (retryqueued.go).
	stopping bool
	// usage is what the agents reported so far: the sum of the ended
	// attempts', then the run's total from its last event.
	usage *state.Usage
	// budget is the run's budgets and spend, nil without a budget: from
	// the run's first event, then each ended attempt's priced usage.
	budget *event.Budget
	// quota is the latest quota an agent CLI reported (quotaAgent's).
	quota      *event.Quota
	quotaAgent string
}

// spend folds an ended attempt's usage into the budget's spend.
func (r *runInfo) spend(u *state.Usage) {
	if r.budget != nil {
		usd, _ := budget.Price(u)
		r.budget.SpentUSD += usd
	}
}

// setBudget takes the budget an event carries.
func (r *runInfo) setBudget(b *event.Budget) {
	if b != nil {
		c := *b
		r.budget = &c
	}
}

// applyEvent folds one engine event into the rows and run info. It is pure
// bookkeeping: no I/O, no allocation beyond the log line.
func (m *Model) applyEvent(e event.Event) {
	at := e.Time
	if at.IsZero() {
		at = m.now()
	}
	switch e.Kind {
	case event.RunStarted:
		m.run.started, m.run.ended = at, time.Time{}
		m.run.status, m.run.haltReason = state.RunRunning, ""
		m.run.stopping = false
		m.run.budget = nil
		m.run.setBudget(e.Budget)
		m.run.quota = nil
		m.haltResume = ""
		return
	case event.AgentQuota:
		m.run.quota, m.run.quotaAgent = e.Quota, e.Agent
		return
	case event.BudgetReached:
		m.run.setBudget(e.Budget)
		m.run.stopping = true
		defer m.settleRetries()
		if e.PhaseID == "" {
			return
		}
	case event.BatchStarted:
		// A phase the plan did not list gets its row here when the event
		// names its id, else with its first event (rowFor): its id is
		// never guessed from its display id ("2-A" is "2a").
		for i, display := range e.Phases {
			if i >= len(e.PhaseIDs) || e.PhaseIDs[i] == "" {
				continue
			}
			if id := e.PhaseIDs[i]; m.phases.byID[id] == nil && m.phases.byDisplay(display) == nil {
				m.addRow(&phaseRow{id: id, displayID: display, batch: e.Batch, log: newRing(m.logLines)})
			}
		}
		return
	case event.RunHalted, event.RunInterrupted, event.RunComplete:
		m.run.ended, m.run.haltReason = at, e.Line
		m.run.setBudget(e.Budget)
		if e.Usage != nil {
			m.run.usage = e.Usage
		}
		m.run.status = map[event.Kind]state.RunStatus{
			event.RunHalted: state.RunHalted, event.RunInterrupted: state.RunInterrupted, event.RunComplete: state.RunComplete,
		}[e.Kind]
		m.settleRetries()
		return
	}
	if e.PhaseID == "" {
		return
	}
	r := m.rowFor(e)
	if e.Kind != event.PhaseWaiting && !e.Kind.Droppable() {
		r.until = time.Time{}
	}
	switch e.Kind {
	case event.PhaseSkipped:
		// A phase an earlier run completed keeps its check mark on resume.
		if r.status != stComplete {
			r.status = stSkipped
		}
		r.note = e.Line
	case event.PhaseStarted:
		r.status, r.attempt, r.maxAttempts = stRunning, e.Attempt, e.MaxAttempts
		if e.Agent != "" {
			r.agent = e.Agent
		}
		r.started, r.duration, r.worker = at, 0, ""
		r.gates, r.failure, r.note, r.blockedBy, r.last = nil, nil, "", nil, ""
		r.log.add(fmt.Sprintf("── attempt %s · %s · %s ──", attemptText(r.attempt, r.maxAttempts), r.agent, at.Format("15:04:05")))
	case event.PhaseWorker:
		// Which machine makes the attempt (--executor temporal).
		r.worker = sanitize(e.Line)
		r.log.add("── on worker " + e.Line + " ──")
	case event.PhaseOutput:
		line := e.Line
		if kind, ok := strings.CutPrefix(e.Stream, "gate:"); ok {
			line = "[" + kind + "] " + line
		}
		r.log.add(line)
		if l := r.log.last(); !bareFence(l) {
			// A markdown fence alone says nothing about what the phase
			// does: the row keeps the line before it.
			r.last = l
		}
	case event.WorktreeReady:
		r.log.add("worktree: " + e.Line)
		r.last = r.log.last()
	case event.AgentAction:
		// One line per tool call: "→ Write calc/format.go" (the log
		// sanitizes every line it keeps).
		r.log.add("→ " + e.Line)
		r.last = r.log.last()
	case event.GateResult:
		if g := e.Gate; g != nil {
			r.setGate(gateRow{Kind: g.Kind, Command: g.Command, Status: g.Status, ExitCode: g.ExitCode, DurationSeconds: g.DurationSeconds})
		}
	case event.PhaseVerifying:
		// Its gates passed; its change is verified on top of what landed
		// meanwhile: the row says with what, until it lands or fails.
		r.last = "verifying with " + strings.TrimPrefix(e.Line, "on top of ")
	case event.PhaseFailed:
		// Shown as "retry queued" while its retry waits to start, until
		// the run stops (settleRetries).
		r.status, r.failure = stFailed, e.Failure
		if e.Attempt > 0 {
			r.attempt, r.maxAttempts = e.Attempt, e.MaxAttempts
		}
		if haltsRun(e.Failure, r.attempt, r.maxAttempts) {
			m.run.stopping = true
		}
		defer m.settleRetries()
		m.run.usage = m.run.usage.Add(e.Usage)
		m.run.spend(e.Usage)
		r.duration = attemptDuration(e, r, at)
	case event.PhaseRetrying:
		r.status, r.note = stRetrying, e.Line
	case event.PhaseWaiting:
		r.status, r.note = stRetrying, e.Line
		if e.Until != nil {
			r.until, r.waitUsage = *e.Until, strings.HasPrefix(e.Line, "usage limit")
		}
	case event.PhaseInterrupted:
		r.status = stInterrupted
		r.duration = attemptDuration(e, r, at)
	case event.PhaseCompleted:
		r.status, r.failure = stComplete, nil
		m.run.usage = m.run.usage.Add(e.Usage)
		m.run.spend(e.Usage)
		r.duration = attemptDuration(e, r, at)
	case event.PhaseIntegrated:
		r.status = stComplete
		if e.Commit != nil {
			r.commit = e.Commit
		}
	case event.PhaseBlocked:
		r.status, r.blockedBy = stBlocked, e.BlockedBy
	case event.PhaseAwaitingReview:
		// Its usage counts when it completes or fails (PhaseCompleted,
		// PhaseFailed carry the attempt's).
		r.status, r.note = stAwaiting, e.Line
		r.duration = attemptDuration(e, r, at)
	case event.PhaseReviewed:
		r.log.add("── review: " + e.Line + " ──")
		if e.Line == event.ReviewApproved || e.Line == event.ReviewRechecking {
			// It lands now (a few git commands), or its gates run again
			// on a person's change.
			r.status = stRunning
		}
	case event.BudgetReached:
		// The phase's own budget: it fails without a new attempt.
		r.status, r.failure = stFailed, e.Failure
	}
}

func attemptDuration(e event.Event, r *phaseRow, at time.Time) float64 {
	if e.DurationSeconds > 0 {
		return e.DurationSeconds
	}
	if !r.started.IsZero() {
		return at.Sub(r.started).Seconds()
	}
	return 0
}

// rowFor returns the row an event is about, adding it when the plan did not
// list it (an engine is free to report phases the TUI was not told about).
func (m *Model) rowFor(e event.Event) *phaseRow {
	if r := m.phases.byID[e.PhaseID]; r != nil {
		if r.name == "" {
			r.name = e.PhaseName
		}
		return r
	}
	display := e.DisplayID.Or(e.PhaseID)
	// A row made from a PhaseInfo without an id is keyed by its display
	// id until an event names the real one.
	if r := m.phases.byDisplay(display); r != nil {
		m.phases.rekey(r, e.PhaseID)
		return r
	}
	r := &phaseRow{id: e.PhaseID, displayID: display, name: e.PhaseName, batch: e.Batch, log: newRing(m.logLines)}
	m.addRow(r)
	return r
}

// addRow adds r in its batch, keeping the selection on its row.
func (m *Model) addRow(r *phaseRow) { m.table.inserted(m.phases.add(r)) }

func attemptText(attempt, max int) string {
	if attempt == 0 {
		return ""
	}
	if max == 0 {
		max = 2
	}
	return fmt.Sprintf("%d/%d", attempt, max)
}

// bareFence reports whether line is only a markdown code fence (```, ```json,
// ~~~) or blank: nothing for a row's last output to show.
func bareFence(line string) bool {
	t := strings.TrimSpace(line)
	if t == "" {
		return true
	}
	for _, fence := range []string{"```", "~~~"} {
		if rest, ok := strings.CutPrefix(t, fence); ok {
			rest = strings.TrimLeft(rest, fence[:1])
			return !strings.ContainsAny(rest, " \t`~")
		}
	}
	return false
}
