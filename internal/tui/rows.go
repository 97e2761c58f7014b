package tui

import (
	"slices"
	"time"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// rowStatus is what a row shows; it refines state.PhaseStatus with the
// moments in between (a retry queued, an attempt interrupted).
type rowStatus int

const (
	stPending rowStatus = iota
	stRunning
	stRetrying // an attempt failed and the retry is queued
	stComplete
	stFailed
	stBlocked
	stSkipped
	stInterrupted
	// stAwaiting: its gates passed and it waits for a person's review
	// (--review) before it lands.
	stAwaiting
)

// gateRow is one gate's outcome in the phase's latest attempt.
type gateRow struct {
	Kind, Command, Status string
	ExitCode              int
	DurationSeconds       float64
	OutputSummary         string
}

// phaseRow is everything the run view and the detail pane know about one
// phase, from events (live) or state files (watch).
type phaseRow struct {
	id        phaseid.ID
	displayID phaseid.Display
	name      string
	batch     int
	dependsOn []phaseid.ID

	status      rowStatus
	attempt     int
	maxAttempts int
	agent       string
	worker      string    // the latest attempt's (--executor temporal); "" for a local one
	started     time.Time // of the current attempt; zero when none
	duration    float64   // seconds, once the attempt ended
	last        string    // last output line
	note        string    // a skip reason, a retry's message
	blockedBy   []phaseid.Display
	gates       []gateRow
	failure     *failreport.Report
	commit      *state.Commit
	// until is when a phase waiting out a provider's limit runs again
	// (zero when it is not waiting); waitUsage says the limit is a usage
	// limit rather than a rate limit.
	until     time.Time
	waitUsage bool

	log *ring
}

// setGate records a gate result, replacing an earlier one of the same kind.
func (r *phaseRow) setGate(g gateRow) {
	for i := range r.gates {
		if r.gates[i].Kind == g.Kind {
			r.gates[i] = g
			return
		}
	}
	r.gates = append(r.gates, g)
}

// done reports whether the phase counts toward progress.
func (r *phaseRow) done() bool { return r.status == stComplete || r.status == stSkipped }

// rowsFromBatches builds the initial pending rows of a live run.
func rowsFromBatches(batches [][]PhaseInfo, logLines int) []*phaseRow {
	var rows []*phaseRow
	for i, b := range batches {
		for _, p := range b {
			batch := p.Batch
			if batch == 0 {
				batch = i + 1
			}
			id := p.ID
			if id == "" {
				// Keyed by its display id until an event names its id.
				id = phaseid.ID(p.DisplayID)
			}
			display := p.DisplayID.Or(id)
			rows = append(rows, &phaseRow{id: id, displayID: display, name: p.Name, batch: batch,
				dependsOn: p.DependsOn, log: newRing(logLines)})
		}
	}
	return rows
}

// statusFromState maps a phase file's status to a row status.
func statusFromState(p *state.Phase) rowStatus {
	switch p.Status {
	case state.PhaseRunning:
		return stRunning
	case state.PhaseComplete:
		return stComplete
	case state.PhaseFailed:
		return stFailed
	case state.PhaseBlocked:
		return stBlocked
	case state.PhaseSkipped:
		return stSkipped
	case state.PhaseAwaitingReview:
		return stAwaiting
	}
	if n := len(p.Attempts); n > 0 && p.Attempts[n-1].Outcome == state.OutcomeInterrupted {
		return stInterrupted
	}
	return stPending
}

// applyPhase overwrites what a row shows with a phase file's content. The
// row's log is kept: it is not in the phase file.
func (r *phaseRow) applyPhase(p *state.Phase) {
	r.id = p.PhaseID
	r.displayID = p.DisplayID.Or(p.PhaseID)
	r.name = p.PhaseName
	if p.Batch > 0 {
		r.batch = p.Batch
	}
	r.dependsOn = p.Dependencies.DependsOn
	r.status = statusFromState(p)
	r.attempt = p.Attempt
	r.maxAttempts = p.MaxAttempts
	r.agent = p.Agent
	r.worker = sanitize(p.Worker())
	r.started = time.Time{}
	if p.Timestamps.Started != nil {
		r.started = *p.Timestamps.Started
	}
	if d := p.Timestamps.DurationSeconds; d > 0 || r.status == stRunning {
		// A file without a duration keeps the one the events gave.
		r.duration = d
	}
	if p.LastOutput != "" {
		r.last = sanitize(p.LastOutput)
	}
	r.blockedBy = p.BlockedBy
	r.failure = p.Error
	r.commit = p.Commit
	r.gates = r.gates[:0]
	for _, kind := range gateOrder(p.QualityGates) {
		g := p.QualityGates[kind]
		r.setGate(gateRow{Kind: kind, Command: g.Command, Status: g.Status, ExitCode: g.ExitCode,
			DurationSeconds: g.DurationSeconds, OutputSummary: g.OutputSummary})
	}
}

// gateOrder lists the gates' kinds in the order gates run, unknown kinds
// last in name order, so the detail pane is stable.
func gateOrder(gates map[string]state.GateResult) []string {
	var kinds []string
	for _, k := range plan.GateKinds {
		if _, ok := gates[k]; ok {
			kinds = append(kinds, k)
		}
	}
	var rest []string
	for k := range gates {
		if !slices.Contains(plan.GateKinds, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	return append(kinds, rest...)
}

// phasesFromRows turns rows back into phase records, for a summary when the
// state files cannot be read.
func phasesFromRows(rows []*phaseRow) []*state.Phase {
	out := make([]*state.Phase, 0, len(rows))
	for _, r := range rows {
		p := &state.Phase{PhaseID: r.id, DisplayID: r.displayID, PhaseName: r.name, Batch: r.batch,
			Attempt: r.attempt, MaxAttempts: r.maxAttempts, Agent: r.agent, BlockedBy: r.blockedBy,
			Error: r.failure, Commit: r.commit}
		p.Timestamps.DurationSeconds = r.duration
		switch r.status {
		case stRunning, stRetrying:
			p.Status = state.PhaseRunning
		case stComplete:
			p.Status = state.PhaseComplete
		case stFailed:
			p.Status = state.PhaseFailed
		case stBlocked:
			p.Status = state.PhaseBlocked
		case stSkipped:
			p.Status = state.PhaseSkipped
		case stAwaiting:
			p.Status = state.PhaseAwaitingReview
		case stInterrupted:
			p.Status = state.PhasePending
			p.Attempts = []state.Attempt{{Number: r.attempt, Outcome: state.OutcomeInterrupted}}
		default:
			p.Status = state.PhasePending
		}
		out = append(out, p)
	}
	return out
}
