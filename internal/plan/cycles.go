package plan

import (
	"fmt"
	"slices"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// checkCycles reports every dependency cycle once: each strongly connected
// component with more than one phase, or a phase depending on itself, is
// named by one cycle through its first phase in plan order. The cycle is
// written in the order the phases would run ("2A → 3 → 4 → 2A": 3 depends
// on 2A, 4 on 3, and 2A on 4), at the line of that first phase.
func (b *builder) checkCycles() {
	for _, comp := range b.components() {
		start := comp[0]
		self := slices.Contains(start.DependsOn, start.ID)
		if len(comp) == 1 && !self {
			continue
		}
		path := b.cyclePath(start, comp)
		names := make([]phaseid.Display, len(path))
		for i, ph := range path {
			names[i] = ph.DisplayID
		}
		line := start.Line
		if line == 0 {
			line = start.SectionLine
		}
		b.problem(line, CodeCircularDependency, fmt.Sprintf("%s: %s", CodeCircularDependency, phaseid.Join(names, " → ")))
	}
}

// components returns the strongly connected components of the dependency
// graph (Tarjan's algorithm), each sorted in plan order.
func (b *builder) components() [][]*Phase {
	order := map[phaseid.ID]int{}
	for i, src := range b.sources {
		order[src.phase.ID] = i
	}
	var (
		index   = map[phaseid.ID]int{}
		low     = map[phaseid.ID]int{}
		onStack = map[phaseid.ID]bool{}
		stack   []phaseid.ID
		comps   [][]*Phase
		visit   func(id phaseid.ID)
	)
	visit = func(id phaseid.ID) {
		index[id] = len(index)
		low[id] = index[id]
		stack = append(stack, id)
		onStack[id] = true
		for _, dep := range b.byID[id].phase.DependsOn {
			if _, seen := index[dep]; !seen {
				visit(dep)
				low[id] = min(low[id], low[dep])
			} else if onStack[dep] {
				low[id] = min(low[id], index[dep])
			}
		}
		if low[id] != index[id] {
			return
		}
		var comp []*Phase
		for {
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[top] = false
			comp = append(comp, b.byID[top].phase)
			if top == id {
				break
			}
		}
		slices.SortFunc(comp, func(x, y *Phase) int { return order[x.ID] - order[y.ID] })
		comps = append(comps, comp)
	}
	for _, src := range b.sources {
		if _, seen := index[src.phase.ID]; !seen {
			visit(src.phase.ID)
		}
	}
	slices.SortFunc(comps, func(x, y []*Phase) int { return order[x[0].ID] - order[y[0].ID] })
	return comps
}

// cyclePath finds the shortest cycle from start back to itself within
// comp, following "is depended on by" edges, and returns it with start at
// both ends.
func (b *builder) cyclePath(start *Phase, comp []*Phase) []*Phase {
	inComp := map[phaseid.ID]bool{}
	for _, ph := range comp {
		inComp[ph.ID] = true
	}
	// next lists, for each phase of comp, the phases of comp depending on it.
	next := map[phaseid.ID][]*Phase{}
	for _, ph := range comp {
		for _, dep := range ph.DependsOn {
			if inComp[dep] {
				next[dep] = append(next[dep], ph)
			}
		}
	}
	prev := map[phaseid.ID]*Phase{}
	queue := []*Phase{start}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, n := range next[cur.ID] {
			if n.ID == start.ID {
				path := []*Phase{start}
				for p := cur; p.ID != start.ID; p = prev[p.ID] {
					path = append(path, p)
				}
				slices.Reverse(path[1:])
				return append(path, start)
			}
			if _, seen := prev[n.ID]; !seen {
				prev[n.ID] = cur
				queue = append(queue, n)
			}
		}
	}
	return []*Phase{start, start} // Unreachable for a real component.
}
