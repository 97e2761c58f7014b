package schedule

import (
	"context"
	"slices"
	"sync"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// eagerEnd is an attempt that ended, as the eager loop hears of it.
type eagerEnd struct {
	p      *plan.Phase
	number int
	res    AttemptResult
	// held says the phase waits for review: its slot is free, the
	// attempt has not ended (reviewslots.go).
	held bool
}

// eagerRun is the eager loop's bookkeeping. Only the loop's goroutine
// touches it.
type eagerRun struct {
	order map[phaseid.ID]int          // plan order
	rank  map[phaseid.ID]int          // phases on the longest chain from it, itself included
	deps  map[phaseid.ID][]phaseid.ID // the dependencies it waits for
	group map[phaseid.ID]int          // which of plan.Groups it is in
	// dependents are the phases waiting for it; waiting counts, per
	// phase, the dependencies not landed yet; fresh holds the phases
	// whose dependencies have all landed and that have not started. The
	// loop looks at these, not at every phase of the plan, at each end.
	dependents map[phaseid.ID][]phaseid.ID
	waiting    map[phaseid.ID]int
	fresh      map[phaseid.ID]bool
	running    map[phaseid.ID]bool
	// holding are the phases waiting for review: out of running (their
	// slot is free), their attempt not ended.
	holding map[phaseid.ID]bool
	// started counts the attempts started in this run (1, then 2 for the
	// retry); retry holds the phases whose retry waits for a slot.
	started map[phaseid.ID]int
	retry   map[phaseid.ID]bool
	// overlap holds, per phase, the phases that ran at the same time as
	// it: those that land are named to its retry, whose worktree does not
	// have their work.
	overlap map[phaseid.ID]map[phaseid.ID]bool
}

// runEager starts each phase as soon as its dependencies have landed, up
// to maxParallel at once and only alongside phases of its group
// (plan.Groups); when slots are short the phase with the longest chain of
// phases after it goes first, ties in plan order. A failed phase retries
// as soon as it failed; a halt starts nothing new and lets running phases
// finish.
func (s *Scheduler) runEager(ctx context.Context) {
	e := s.newEagerRun()
	ends := make(chan eagerEnd)
	for {
		if !s.stopping(ctx) {
			s.startEager(ctx, e, s.startable(e), ends)
		}
		if len(e.running) == 0 && len(e.holding) == 0 {
			return
		}
		end := <-ends
		delete(e.running, end.p.ID)
		if end.held {
			e.holding[end.p.ID] = true
			continue
		}
		delete(e.holding, end.p.ID)
		if s.isComplete(end.p.ID) {
			e.landed(end.p.ID)
		}
		if end.res.Outcome == state.OutcomeFailed && end.number < MaxAttempts && !s.stopping(ctx) {
			// A failure that settle did not halt the run for is retried,
			// as soon as a slot is free.
			e.retry[end.p.ID] = true
		}
	}
}

func (s *Scheduler) newEagerRun() *eagerRun {
	e := &eagerRun{order: map[phaseid.ID]int{}, rank: map[phaseid.ID]int{}, deps: map[phaseid.ID][]phaseid.ID{}, group: map[phaseid.ID]int{},
		dependents: map[phaseid.ID][]phaseid.ID{}, waiting: map[phaseid.ID]int{}, fresh: map[phaseid.ID]bool{},
		running: map[phaseid.ID]bool{}, holding: map[phaseid.ID]bool{}, started: map[phaseid.ID]int{}, retry: map[phaseid.ID]bool{}, overlap: map[phaseid.ID]map[phaseid.ID]bool{}}
	batch := map[phaseid.ID]int{}
	for _, b := range s.Plan.Batches() {
		for _, p := range b.Phases {
			batch[p.ID] = b.Index
		}
	}
	for i, p := range s.Plan.Phases {
		e.order[p.ID] = i
		// A dependency in an earlier batch: phases caught in a cycle share
		// the last batch and run together, as batches run them.
		for _, d := range p.DependsOn {
			if b, ok := batch[d]; ok && b < batch[p.ID] && !slices.Contains(e.deps[p.ID], d) {
				e.deps[p.ID] = append(e.deps[p.ID], d)
			}
		}
	}
	for i, g := range s.Plan.Groups() {
		for _, p := range g {
			e.group[p.ID] = i
		}
	}
	for _, p := range s.Plan.Phases {
		for _, d := range e.deps[p.ID] {
			e.dependents[d] = append(e.dependents[d], p.ID)
			if !s.isComplete(d) {
				e.waiting[p.ID]++
			}
		}
		if e.waiting[p.ID] == 0 && !s.isComplete(p.ID) {
			e.fresh[p.ID] = true
		}
	}
	s.rankChains(e)
	return e
}

// landed counts a landed phase off its dependents' waits.
func (e *eagerRun) landed(id phaseid.ID) {
	for _, d := range e.dependents[id] {
		if e.waiting[d]--; e.waiting[d] == 0 && e.started[d] == 0 {
			e.fresh[d] = true
		}
	}
}

// rankChains counts, per phase, the phases still to run on the longest
// chain of dependents from it, itself included: the critical-path
// priority without duration estimates.
func (s *Scheduler) rankChains(e *eagerRun) {
	var visit func(id phaseid.ID) int
	visit = func(id phaseid.ID) int {
		if r, ok := e.rank[id]; ok {
			return r
		}
		e.rank[id] = 0 // deps only point to earlier batches: no cycle
		longest := 0
		for _, d := range e.dependents[id] {
			longest = max(longest, visit(d))
		}
		if !s.isComplete(id) {
			longest++
		}
		e.rank[id] = longest
		return longest
	}
	for _, p := range s.Plan.Phases {
		visit(p.ID)
	}
}

// startable picks the phases to start now, best first: ready ones (their
// dependencies landed, or their retry due) while slots are free, each only
// alongside the running phases of its group.
func (s *Scheduler) startable(e *eagerRun) []*plan.Phase {
	ready := make([]*plan.Phase, 0, len(e.fresh)+len(e.retry))
	for _, set := range []map[phaseid.ID]bool{e.fresh, e.retry} {
		for id := range set {
			if !e.running[id] && !s.isComplete(id) {
				ready = append(ready, s.Plan.Phase(id))
			}
		}
	}
	slices.SortStableFunc(ready, func(a, b *plan.Phase) int {
		if e.rank[a.ID] != e.rank[b.ID] {
			return e.rank[b.ID] - e.rank[a.ID]
		}
		return e.order[a.ID] - e.order[b.ID]
	})
	free := max(0, s.parallelNow()-len(e.running))
	group := -1
	for id := range e.running {
		group = e.group[id]
	}
	var out []*plan.Phase
	for _, p := range ready {
		if free == 0 {
			break
		}
		if group >= 0 && e.group[p.ID] != group {
			continue
		}
		group = e.group[p.ID]
		out = append(out, p)
		free--
	}
	return out
}

// startEager starts the next attempt of each phase in its own goroutine,
// which reports its end on ends. Each prompt names every phase running
// alongside, those starting with it included.
func (s *Scheduler) startEager(ctx context.Context, e *eagerRun, phases []*plan.Phase, ends chan<- eagerEnd) {
	for _, p := range phases {
		for id := range e.running {
			e.markOverlap(id, p.ID)
		}
		e.running[p.ID] = true
		e.started[p.ID]++
		delete(e.retry, p.ID)
		delete(e.fresh, p.ID)
	}
	for _, p := range phases {
		number := e.started[p.ID]
		var siblings, landed []*plan.Phase
		for id := range e.running {
			if id != p.ID {
				siblings = append(siblings, s.Plan.Phase(id))
			}
		}
		if number > 1 {
			for id := range e.overlap[p.ID] {
				if !e.running[id] && s.isComplete(id) {
					landed = append(landed, s.Plan.Phase(id))
				}
			}
		}
		e.inPlanOrder(siblings)
		e.inPlanOrder(landed)
		go func() { // a retry is announced as it starts (attempt)
			held := sync.OnceFunc(func() { ends <- eagerEnd{p: p, number: number, held: true} })
			undo := s.whileHeld(p.ID, held)
			res := s.attempt(ctx, p, number, siblings, landed)
			undo()
			ends <- eagerEnd{p: p, number: number, res: res}
		}()
	}
}

// inPlanOrder sorts phases in plan order.
func (e *eagerRun) inPlanOrder(phases []*plan.Phase) {
	slices.SortFunc(phases, func(a, b *plan.Phase) int { return e.order[a.ID] - e.order[b.ID] })
}

func (e *eagerRun) markOverlap(a, b phaseid.ID) {
	for _, pair := range [][2]phaseid.ID{{a, b}, {b, a}} {
		if e.overlap[pair[0]] == nil {
			e.overlap[pair[0]] = map[phaseid.ID]bool{}
		}
		e.overlap[pair[0]][pair[1]] = true
	}
}

// failedReport is the failure that a phase's retry answers.
func (s *Scheduler) failedReport(id phaseid.ID) failreport.Report {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.Failed[id]; r != nil {
		return *r
	}
	return failreport.Report{}
}
