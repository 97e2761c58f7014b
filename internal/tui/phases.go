package tui

import (
	"slices"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// phaseSet is the phases the model knows, in display order (by batch), and
// the same rows by phase id. Every view reads it; only the model changes it.
type phaseSet struct {
	rows []*phaseRow
	byID map[phaseid.ID]*phaseRow
}

func newPhaseSet(rows []*phaseRow) phaseSet {
	s := phaseSet{rows: rows, byID: make(map[phaseid.ID]*phaseRow, len(rows))}
	for _, r := range rows {
		s.byID[r.id] = r
	}
	return s
}

// byDisplay returns the row shown as display, nil when none.
func (s *phaseSet) byDisplay(display phaseid.Display) *phaseRow {
	for _, r := range s.rows {
		if r.displayID == display {
			return r
		}
	}
	return nil
}

// add inserts r after the last row of its batch, keeping batch order, and
// returns its index.
func (s *phaseSet) add(r *phaseRow) int {
	i := len(s.rows)
	for i > 0 && s.rows[i-1].batch > r.batch && r.batch > 0 {
		i--
	}
	s.rows = slices.Insert(s.rows, i, r)
	s.byID[r.id] = r
	return i
}

// rekey changes the id r is found by.
func (s *phaseSet) rekey(r *phaseRow, id phaseid.ID) {
	delete(s.byID, r.id)
	r.id = id
	s.byID[id] = r
}

// anyRunning reports whether a phase runs (the spinner turns).
func (s *phaseSet) anyRunning() bool {
	return slices.ContainsFunc(s.rows, func(r *phaseRow) bool { return r.status == stRunning })
}

// failed returns the index of the phase `l` shows: the first failed phase,
// else the first interrupted or blocked one; -1 when none.
func (s *phaseSet) failed() int {
	for _, want := range []rowStatus{stFailed, stInterrupted, stBlocked} {
		if i := slices.IndexFunc(s.rows, func(r *phaseRow) bool { return r.status == want }); i >= 0 {
			return i
		}
	}
	return -1
}

// firstWaiting is the phase waiting out a provider's limit that resumes
// first, nil when none waits: the header shows its countdown.
func (s *phaseSet) firstWaiting() *phaseRow {
	var first *phaseRow
	for _, r := range s.rows {
		if r.status == stRetrying && !r.until.IsZero() && (first == nil || r.until.Before(first.until)) {
			first = r
		}
	}
	return first
}

// waitingFor lists the display ids of the unfinished dependencies of r.
func (s *phaseSet) waitingFor(r *phaseRow) []phaseid.Display {
	var out []phaseid.Display
	for _, id := range r.dependsOn {
		if d := s.byID[id]; d != nil && !d.done() {
			out = append(out, d.displayID)
		}
	}
	return out
}
