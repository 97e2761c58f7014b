package tui

import (
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/autobuild-sh/autobuild/internal/budget"
	"github.com/autobuild-sh/autobuild/internal/event"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/state"
	"github.com/autobuild-sh/autobuild/internal/summary"
)

// handleWatch applies one update of `autobuild watch`: the state snapshot
// drives the rows and the run info; appended log lines feed the phases'
// logs. When the run ends the summary screen opens, as in a live run; when a
// run starts again (resumed elsewhere) the run view comes back.
func (m *Model) handleWatch(msg watchMsg) tea.Cmd {
	if msg.closed {
		m.watchClosed = true
		return nil
	}
	u := msg.update
	m.watchErr = u.Err
	if s := u.Snapshot; s != nil && s.Run != nil {
		if !m.watchRun.IsZero() && !s.Run.Started.Equal(m.watchRun) {
			// A new run (started fresh): the old rows mean nothing now.
			m.phases = newPhaseSet(nil)
			m.table.sel, m.table.top = 0, 0
			m.pane.view.reset()
		}
		m.watchRun = s.Run.Started
		prev := m.run.status
		m.mergeSnapshot(s)
		m.applyRunFile(s.Run)
		// The files say failed for an attempt whose retry is queued.
		m.run.stopping = haltedInSession(s)
		m.settleRetries()
		if m.run.status != prev {
			m.footer.clearNotice()
		}
		if s.Run.Status == state.RunRunning {
			m.summary.SetInput(nil)
			if m.screen != screenReview {
				m.screen = screenRun
			}
		} else {
			m.summary.SetInput(&summary.Input{Run: s.Run, Phases: s.Phases, StateDir: m.stateDir(),
				ResumeCommand: m.resumeHint(), FreshCommand: m.freshHint()})
			if prev == "" || prev == state.RunRunning {
				m.summary.top()
				m.screen = screenSummary
			}
		}
	}
	for id, lines := range u.Lines {
		r := m.phases.byID[id]
		if r == nil {
			// Lines of a phase whose file has not been read yet: its
			// display id comes with the file (applyPhase), until then
			// the row shows its id, not a guess of the display id.
			r = &phaseRow{id: id, displayID: phaseid.Display(id), log: newRing(m.logLines)}
			m.addRow(r)
		}
		for _, l := range lines {
			r.log.add(l)
		}
		if r.status == stRunning {
			r.last = r.log.last()
		}
	}
	m.autoSelect()
	var follow tea.Cmd
	if s := u.Snapshot; s != nil {
		follow = m.reviewFollowFiles(s)
	}
	if m.opts.Watch == nil {
		return follow
	}
	return tea.Batch(follow, waitWatch(m.opts.Watch))
}

// applyRunFile takes the header's facts from run.json (watch mode).
func (m *Model) applyRunFile(r *state.Run) {
	m.run.title = r.PlanTitle
	if m.run.title == "" {
		m.run.title = r.PlanPath
	}
	m.run.commitMode = string(r.CommitMode)
	m.run.schedule = string(r.Schedule)
	m.run.planPath, m.run.agents = r.PlanPath, r.Agents
	m.run.agent = strings.Join(r.Agents, ", ")
	m.run.started = r.Started
	m.run.ended = r.Updated
	if r.Finished != nil {
		m.run.ended = *r.Finished
	}
	if r.Status == state.RunRunning {
		m.run.ended = time.Time{}
	}
	m.run.status, m.run.haltReason = r.Status, r.HaltReason
}

// mergeSnapshot updates the rows from the state files, adding phases not
// shown yet and keeping every row's log. Rows the files do not mention are
// kept (a live run's pending phases may have no file yet).
func (m *Model) mergeSnapshot(s *state.Snapshot) {
	var selID phaseid.ID
	if r := m.selected(); r != nil {
		selID = r.id
	}
	ps := &m.phases
	for _, p := range s.Phases {
		if r := ps.byID[p.PhaseID]; r != nil {
			r.applyPhase(p)
			continue
		}
		r := &phaseRow{log: newRing(m.logLines)}
		r.applyPhase(p)
		ps.rows = append(ps.rows, r)
		ps.byID[r.id] = r
	}
	slices.SortStableFunc(ps.rows, func(a, b *phaseRow) int { return a.batch - b.batch })
	// The files hold every attempt's usage: watch shows what a live run's
	// events would have added up to.
	if u := state.RunUsage(s.Phases); u != nil {
		m.run.usage = u
	}
	if r := s.Run; r != nil && (r.MaxCostUSD > 0 || r.MaxPhaseCostUSD > 0) {
		m.run.budget = &event.Budget{MaxCostUSD: r.MaxCostUSD, MaxPhaseCostUSD: r.MaxPhaseCostUSD, SpentUSD: budget.Of(s.Phases).USD}
	}
	if i := slices.IndexFunc(ps.rows, func(r *phaseRow) bool { return r.id == selID }); i >= 0 {
		m.table.sel = i
	}
	m.table.clamp()
}
