package plan

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// resolve turns every phase's references into ids, now that all phases
// are known, reporting unknown ones, and compares section metadata with
// the table row it repeats.
func (b *builder) resolve() {
	for i, src := range b.sources {
		ph := src.phase
		ph.DependsOn = b.resolveRefs(src.deps, i, func(text string) {
			b.problem(src.deps.line, CodePlanInvalid, fmt.Sprintf("unknown dependency %q in phase %s", text, ph.DisplayID))
		})
		ph.ParallelAny = src.par.anyParallel
		par := b.resolveRefs(src.par, i, func(text string) {
			b.problem(src.par.line, CodePlanInvalid, fmt.Sprintf("unknown phase %q in Parallel With of phase %s", text, ph.DisplayID))
		})
		// Naming yourself as a parallel phase says nothing.
		ph.ParallelWith = slices.DeleteFunc(par, func(id phaseid.ID) bool { return id == ph.ID })
		if src.row != nil && src.sec != nil {
			b.compareMeta(src, i)
		}
	}
}

// resolveRefs returns the ids list refers to, without repeats, calling
// unknown for each reference that names no phase. at is the position of
// the phase whose list it is, in b.sources: "all" means the phases before.
func (b *builder) resolveRefs(list refList, at int, unknown func(text string)) []phaseid.ID {
	var ids []phaseid.ID
	for _, r := range list.refs {
		var named bool
		if r.all {
			for _, src := range b.sources[:at] {
				ids = append(ids, src.phase.ID)
			}
			continue
		}
		if ids, named = b.appendMatches(ids, r); !named && !list.optional {
			unknown(r.text)
		}
	}
	return ids
}

// appendMatches appends to ids those of the phases one reference names
// that are not in ids yet, in plan order for a range ("1–4": 1, 2A, 2B,
// 3, 4). A plain number that is no phase's id names the phases of that
// number, like a range of one: "Phase 2" in a plan of 2A, 2B and 2C means
// all three. named says whether the reference names any phase at all.
func (b *builder) appendMatches(ids []phaseid.ID, r ref) (_ []phaseid.ID, named bool) {
	if !r.isRange {
		if _, ok := b.byID[r.id]; ok && r.id != "" {
			if !slices.Contains(ids, r.id) {
				ids = append(ids, r.id)
			}
			return ids, true
		}
		n := leadingNumber(string(r.id))
		if n < 0 || phaseid.ID(strconv.Itoa(n)) != r.id {
			return ids, false
		}
		r = ref{isRange: true, lo: n, hi: n}
	}
	for _, src := range b.sources {
		id := src.phase.ID
		rest, ok := strings.CutPrefix(string(id), r.prefix)
		if !ok {
			continue
		}
		if n := leadingNumber(rest); n >= r.lo && n <= r.hi {
			named = true
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	return ids, named
}

// refKey is a canonical form of a reference list, to compare the table
// with section metadata: the sorted ids, unknown references as written.
func (b *builder) refKey(list refList, at int) string {
	var (
		ids  []phaseid.ID
		keys []string
	)
	for _, r := range list.refs {
		var named bool
		if r.all {
			for _, src := range b.sources[:at] {
				ids = append(ids, src.phase.ID)
			}
			continue
		}
		if ids, named = b.appendMatches(ids, r); !named && !list.optional {
			keys = append(keys, "?"+normalize(r.text))
		}
	}
	for _, id := range ids {
		keys = append(keys, string(id))
	}
	slices.Sort(keys)
	return strings.Join(slices.Compact(keys), ",")
}

// compareMeta reports section metadata that disagrees with the table:
// Depends On always (the column is required), Parallel With when the table
// has that column. Status is compared when the section is attached.
func (b *builder) compareMeta(src *phaseSource, at int) {
	check := func(m *metaEntry, table refList, parse func(string, int) refList) {
		if m == nil {
			return
		}
		section := parse(m.value, m.line)
		if b.refKey(section, at) != b.refKey(table, at) {
			b.problem(m.line, CodePlanInvalid, fmt.Sprintf("phase %s: section says %s %q but the table says %q (line %d)",
				src.phase.DisplayID, m.key, section.raw, table.raw, src.phase.Line))
		}
	}
	check(src.sec.meta.deps, src.row.deps, parseRefs)
	if b.tableHasPar {
		check(src.sec.meta.par, src.row.par, parseParallel)
	}
}

// checkParallel reports a Parallel With entry naming a phase that depends
// on the naming phase (or that it depends on), directly or transitively:
// such phases can never run together. Each pair is reported once.
func (b *builder) checkParallel() {
	r := newReach(b.plan.Phases)
	reported := map[[2]phaseid.ID]bool{}
	for _, src := range b.sources {
		p := src.phase
		for _, qid := range p.ParallelWith {
			key := [2]phaseid.ID{min(p.ID, qid), max(p.ID, qid)}
			if reported[key] {
				continue
			}
			q := b.byID[qid].phase
			dependent, dependency := q, p
			switch {
			case r.dependsOn(q.ID, p.ID):
			case r.dependsOn(p.ID, q.ID):
				dependent, dependency = p, q
			default:
				continue
			}
			reported[key] = true
			b.problem(src.par.line, CodePlanInvalid, fmt.Sprintf("phase %s runs in parallel with %s, but %s depends on %s",
				p.DisplayID, q.DisplayID, dependent.DisplayID, dependency.DisplayID))
		}
	}
}

// reach answers "does a depend on c, directly or transitively?". A phase
// can only depend on phases of earlier layers, so most questions are
// settled by the layers alone, and a search skips phases that cannot lead
// to c. Phases in or behind a cycle (layer 0) get a plain search.
type reach struct {
	byID  map[phaseid.ID]*Phase
	level map[phaseid.ID]int
}

// newReach indexes phases for dependsOn.
func newReach(phases []*Phase) *reach {
	level, _ := layers(phases)
	r := &reach{byID: make(map[phaseid.ID]*Phase, len(phases)), level: make(map[phaseid.ID]int, len(phases))}
	for i, ph := range phases {
		r.byID[ph.ID] = ph
		r.level[ph.ID] = level[i]
	}
	return r
}

// dependsOn reports whether phase a depends on phase c.
func (r *reach) dependsOn(a, c phaseid.ID) bool {
	la, lc := r.level[a], r.level[c]
	if la != 0 && (lc == 0 || lc >= la) {
		return false
	}
	seen := map[phaseid.ID]bool{a: true}
	stack := []phaseid.ID{a}
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ph, ok := r.byID[cur]
		if !ok {
			continue
		}
		for _, dep := range ph.DependsOn {
			if dep == c {
				return true
			}
			if seen[dep] || (la != 0 && r.level[dep] <= lc) {
				continue
			}
			seen[dep] = true
			stack = append(stack, dep)
		}
	}
	return false
}
