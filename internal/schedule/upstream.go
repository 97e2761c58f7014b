package schedule

import (
	"slices"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
)

// upstream answers "which failed phases are upstream of this one?" for
// every phase of a plan at the cost of one walk of the graph: each phase's
// answer is made once from its dependencies' answers and kept. Asking
// each phase afresh walked its whole ancestry, which at a halt or a
// Ctrl-C of a 10,000-phase plan took minutes.
type upstream struct {
	plan   *plan.Plan
	failed map[phaseid.ID]bool
	// roots holds, per phase id, the ids of the failed phases upstream of
	// it that are root causes (no failed phase between), sorted. Slices
	// are shared between phases and never changed once stored.
	roots map[phaseid.ID][]phaseid.ID
}

func newUpstream(pl *plan.Plan, failed map[phaseid.ID]bool) *upstream {
	return &upstream{plan: pl, failed: failed, roots: make(map[phaseid.ID][]phaseid.ID, len(pl.Phases))}
}

// failedRoots returns the display ids of the failed phases among id's
// transitive dependencies: only the root causes, as Terraform's walker
// does. The walk does not go past a failed phase.
func (u *upstream) failedRoots(id phaseid.ID) []phaseid.Display {
	ids := u.of(id)
	if len(ids) == 0 {
		return nil
	}
	out := make([]phaseid.Display, 0, len(ids))
	for _, r := range ids {
		if p := u.plan.Phase(r); p != nil {
			out = append(out, p.DisplayID)
		}
	}
	slices.Sort(out)
	return out
}

// of returns the ids of the failed root causes upstream of id, sorted.
func (u *upstream) of(id phaseid.ID) []phaseid.ID {
	if r, done := u.roots[id]; done {
		return r
	}
	// Marked before the walk so a cycle (which a validated plan has not)
	// ends instead of recursing forever.
	u.roots[id] = nil
	p := u.plan.Phase(id)
	if p == nil {
		return nil
	}
	var out []phaseid.ID
	for _, dep := range p.DependsOn {
		if u.failed[dep] {
			out = union(out, []phaseid.ID{dep})
		} else {
			out = union(out, u.of(dep))
		}
	}
	u.roots[id] = out
	return out
}

// union merges two sorted lists of distinct ids into a new sorted list,
// or returns one of them unchanged when the other adds nothing.
func union(a, b []phaseid.ID) []phaseid.ID {
	switch {
	case len(b) == 0:
		return a
	case len(a) == 0:
		return b
	}
	out := make([]phaseid.ID, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case a[i] > b[j]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	out = append(out, a[i:]...)
	out = append(out, b[j:]...)
	if len(out) == len(a) {
		return a
	}
	if len(out) == len(b) {
		return b
	}
	return out
}
