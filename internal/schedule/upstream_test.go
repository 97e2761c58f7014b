package schedule

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
	"github.com/autobuild-sh/autobuild/internal/plan"
)

func TestFailedUpstreamNamesOnlyRootCauses(t *testing.T) {
	pl, err := plan.Parse("plan.md", []byte(diamondPlan))
	require.NoError(t, err)
	roots := func(id phaseid.ID, failed ...phaseid.ID) []phaseid.Display {
		set := map[phaseid.ID]bool{}
		for _, f := range failed {
			set[f] = true
		}
		return newUpstream(pl, set).failedRoots(id)
	}
	require.Equal(t, []phaseid.Display{"1"}, roots("3", "1"))
	require.Equal(t, []phaseid.Display{"2A", "2C"}, roots("3", "2a", "2c"))
	require.Equal(t, []phaseid.Display{"1"}, roots("3", "0", "1"), "the walk stops at the first failed phase")
	require.Empty(t, roots("2b", "2a"))
	require.Empty(t, roots("0", "1"))
}

// doubleDiamondPlan has two diamonds in a row and phases that depend on a
// phase and on its ancestor too, so a failed phase is reached by several
// paths and a memoised answer is reused.
const doubleDiamondPlan = `# Double diamond

| Phase | Name | Depends On |
|---|---|---|
| 0 | Bootstrap | - |
| 1 | Core | 0 |
| 2A | Api | 1 |
| 2B | Ui | 1, 0 |
| 3 | Join | 2A, 2B |
| 4A | More | 3 |
| 4B | Other | 3, 2A |
| 5 | End | 4A, 4B, 1 |
`

// TestUpstreamMatchesTheWalkItReplaced compares the memoised answer with
// the per-phase walk markUnrun used to make, for every phase and every set
// of failed phases of two small diamond graphs.
func TestUpstreamMatchesTheWalkItReplaced(t *testing.T) {
	for _, src := range []string{diamondPlan, doubleDiamondPlan} {
		pl, err := plan.Parse("plan.md", []byte(src))
		require.NoError(t, err)
		n := len(pl.Phases)
		for mask := range 1 << n {
			failed := map[phaseid.ID]bool{}
			for i, p := range pl.Phases {
				if mask&(1<<i) != 0 {
					failed[p.ID] = true
				}
			}
			up := newUpstream(pl, failed)
			// Asked in reverse plan order too, so answers are built
			// both from the top and from the bottom of the graph.
			order := slices.Clone(pl.Phases)
			if mask%2 == 1 {
				slices.Reverse(order)
			}
			for _, p := range order {
				want := walkFailedUpstream(pl, p.ID, failed)
				require.Equal(t, want, up.failedRoots(p.ID), fmt.Sprintf("phase %s, failed %v", p.ID, failed))
			}
		}
	}
}

// walkFailedUpstream is the walk markUnrun made for each phase before
// upstream (kept to check upstream against): a search of id's
// dependencies that stops at failed phases.
func walkFailedUpstream(pl *plan.Plan, id phaseid.ID, failed map[phaseid.ID]bool) []phaseid.Display {
	var roots []phaseid.Display
	seen := map[phaseid.ID]bool{}
	var visit func(phaseid.ID)
	visit = func(cur phaseid.ID) {
		p := pl.Phase(cur)
		if p == nil {
			return
		}
		for _, dep := range p.DependsOn {
			if seen[dep] {
				continue
			}
			seen[dep] = true
			if failed[dep] {
				if d := pl.Phase(dep); d != nil {
					roots = append(roots, d.DisplayID)
				}
				continue
			}
			visit(dep)
		}
	}
	visit(id)
	slices.Sort(roots)
	return roots
}

func TestUnionSharesWithoutChanging(t *testing.T) {
	a, b := []phaseid.ID{"1", "3"}, []phaseid.ID{"2", "3"}
	require.Equal(t, []phaseid.ID{"1", "2", "3"}, union(a, b))
	require.Equal(t, []phaseid.ID{"1", "3"}, a, "union does not change its arguments")
	require.Equal(t, []phaseid.ID{"2", "3"}, b)
	require.Same(t, &a[0], &union(a, []phaseid.ID{"3"})[0], "nothing new: a itself")
	require.Same(t, &b[0], &union(nil, b)[0])
	require.Nil(t, union(nil, nil))
}
