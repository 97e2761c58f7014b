package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// Phase returns the phase with the given id, or nil. An id as written
// ("Phase 2-A") is found through NormalizeID.
func (p *Plan) Phase(id phaseid.ID) *Phase {
	return p.index().byID[id]
}

// Dependents returns the ids of the phases that directly depend on id, in
// plan order.
func (p *Plan) Dependents(id phaseid.ID) []phaseid.ID {
	return slices.Clone(p.index().dependents[id])
}

// Hash is the sha256 of the plan's source, in hex: a run records it to
// notice that the plan changed before a resume.
func (p *Plan) Hash() string {
	// A plan without linked files hashes as it always did, so runs
	// started before linked files were read still resume.
	h := sha256.New()
	h.Write(p.src)
	for _, l := range p.linked {
		h.Write(l)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Batches returns the plan's topological layers (docs/running.md): a phase is in
// the first batch after all of its dependencies. Phases the plan marks done
// are included; the engine skips them. Dependencies on unknown phases are
// ignored, and phases caught in a cycle (a plan that failed validation)
// share one last batch, so every phase is in exactly one batch.
func (p *Plan) Batches() []Batch {
	level, maxLevel := layers(p.Phases)
	last := maxLevel
	if slices.Contains(level, 0) {
		last++ // A last batch for the phases in or behind a cycle.
	}
	batches := make([]Batch, last)
	for i, ph := range p.Phases {
		l := level[i]
		if l == 0 {
			l = last
		}
		batches[l-1].Phases = append(batches[l-1].Phases, ph)
	}
	for i := range batches {
		batches[i].Index = i + 1
		batches[i].Groups = p.groups(batches[i].Phases)
	}
	return batches
}

// layers computes each phase's 1-based layer with Kahn's algorithm: one
// past its latest dependency. Phases in or behind a cycle get 0.
// Dependencies on unknown phases are ignored.
func layers(phases []*Phase) (level []int, maxLevel int) {
	index := make(map[phaseid.ID]int, len(phases))
	for i, ph := range phases {
		if _, dup := index[ph.ID]; !dup {
			index[ph.ID] = i
		}
	}
	level = make([]int, len(phases))
	waiting := make([]int, len(phases))
	dependents := make([][]int, len(phases))
	var ready []int
	for i, ph := range phases {
		for k, dep := range ph.DependsOn {
			j, ok := index[dep]
			if !ok || slices.Contains(ph.DependsOn[:k], dep) {
				continue
			}
			waiting[i]++
			dependents[j] = append(dependents[j], i)
		}
		if waiting[i] == 0 {
			level[i] = 1
			ready = append(ready, i)
		}
	}
	for len(ready) > 0 {
		i := ready[0]
		ready = ready[1:]
		maxLevel = max(maxLevel, level[i])
		for _, j := range dependents[i] {
			level[j] = max(level[j], level[i]+1)
			if waiting[j]--; waiting[j] == 0 {
				ready = append(ready, j)
			}
		}
	}
	for i := range phases {
		if waiting[i] > 0 {
			level[i] = 0
		}
	}
	return level, maxLevel
}

// Groups splits the whole plan into the phases that may run at the same
// time, by the rule a batch's groups follow (docs/plan-format.md): one
// group without a Parallel With column; otherwise phases naming each other
// (either way, transitively) and the phases saying Yes alone, each of the
// rest on its own. The eager schedule runs phases of one group together.
func (p *Plan) Groups() [][]*Phase { return p.groups(p.Phases) }

// groups splits a batch into the phases that may run together: all of
// them without a Parallel With column; otherwise phases naming each other
// (either way, transitively) form a group, and a phase naming nobody is
// its own. Groups are in plan order of their first phase.
func (p *Plan) groups(phases []*Phase) [][]*Phase {
	if len(phases) == 0 {
		return nil
	}
	if !p.HasParallelColumn {
		return [][]*Phase{slices.Clone(phases)}
	}
	pos := make(map[phaseid.ID]int, len(phases))
	for i, ph := range phases {
		pos[ph.ID] = i
	}
	parent := make([]int, len(phases))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	anyRoot := -1
	for i, ph := range phases {
		if ph.ParallelAny {
			if anyRoot < 0 {
				anyRoot = i
			} else {
				a, b := find(i), find(anyRoot)
				parent[max(a, b)] = min(a, b)
			}
		}
		for _, other := range ph.ParallelWith {
			if j, ok := pos[other]; ok {
				// The lower root wins so a group's root is its first phase.
				a, b := find(i), find(j)
				parent[max(a, b)] = min(a, b)
			}
		}
	}
	var out [][]*Phase
	slot := map[int]int{}
	for i, ph := range phases {
		root := find(i)
		k, ok := slot[root]
		if !ok {
			k = len(out)
			slot[root] = k
			out = append(out, nil)
		}
		out[k] = append(out[k], ph)
	}
	return out
}
