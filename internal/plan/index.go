package plan

import (
	"slices"
	"sync/atomic"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// planIndex holds the lookups Phase and Dependents answer from, so a
// caller asking about every phase of a 10,000-phase plan does linear work,
// not quadratic. It is built on first use from the phases as they are
// then: a plan's phases and their dependencies must not change after
// Phase or Dependents was first called (the parser builds it once
// they are final).
type planIndex struct {
	// phases is the slice the index was built from: a plan whose Phases
	// was replaced or grew since (a test's literal) is indexed again.
	phases     []*Phase
	byID       map[phaseid.ID]*Phase
	dependents map[phaseid.ID][]phaseid.ID
}

// indexHolder is the plan's lazily built index. A pointer swapped
// atomically keeps Phase safe to call from several goroutines without a
// lock on the read path; two callers racing to build it build the same
// thing, and one of them wins.
type indexHolder struct{ p atomic.Pointer[planIndex] }

// index returns the plan's index, building it when missing or stale.
func (p *Plan) index() *planIndex {
	if idx := p.idx.p.Load(); idx != nil && sameSlice(idx.phases, p.Phases) {
		return idx
	}
	idx := newPlanIndex(p.Phases)
	p.idx.p.Store(idx)
	return idx
}

// sameSlice reports whether a and b are the same slice: same length, same
// backing array.
func sameSlice(a, b []*Phase) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// newPlanIndex indexes phases: the first phase of an id wins, as the
// linear scan it replaces found it; a phase depends on another once
// however many times its list names it.
func newPlanIndex(phases []*Phase) *planIndex {
	idx := &planIndex{phases: phases, byID: make(map[phaseid.ID]*Phase, len(phases)), dependents: map[phaseid.ID][]phaseid.ID{}}
	for _, ph := range phases {
		if _, dup := idx.byID[ph.ID]; !dup {
			idx.byID[ph.ID] = ph
		}
		for k, dep := range ph.DependsOn {
			if !slices.Contains(ph.DependsOn[:k], dep) {
				idx.dependents[dep] = append(idx.dependents[dep], ph.ID)
			}
		}
	}
	return idx
}
