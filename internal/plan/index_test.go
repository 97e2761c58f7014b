package plan

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// A plan made as a literal is indexed on first use, and again when its
// phases are replaced or grow; the index answers as the scan it replaced.
func TestIndexOfALiteralPlan(t *testing.T) {
	t.Parallel()
	first := phase("1", nil, nil)
	p := &Plan{Phases: []*Phase{first, phase("2", []phaseid.ID{"1", "1"}, nil), phase("1", nil, nil), phase("3", []phaseid.ID{"1", "2"}, nil)}}
	require.Same(t, first, p.Phase(NormalizeID("Phase 1")), "the first phase of an id wins")
	require.Equal(t, []phaseid.ID{"2", "3"}, p.Dependents("1"), "a phase naming a dependency twice depends on it once")
	require.Nil(t, p.Dependents("3"))

	p.Phases = append(p.Phases, phase("4", []phaseid.ID{"1"}, nil))
	require.NotNil(t, p.Phase("4"), "a grown plan is indexed again")
	require.Equal(t, []phaseid.ID{"2", "3", "4"}, p.Dependents("1"))

	p.Phases = []*Phase{phase("9", nil, nil)}
	require.Nil(t, p.Phase("1"), "replaced phases are indexed again")
	require.NotNil(t, p.Phase("9"))
}

// Dependents hands out a copy: changing it does not change the plan's answer.
func TestDependentsIsACopy(t *testing.T) {
	t.Parallel()
	p := &Plan{Phases: []*Phase{phase("1", nil, nil), phase("2", []phaseid.ID{"1"}, nil)}}
	d := p.Dependents("1")
	d[0] = "x"
	require.Equal(t, []phaseid.ID{"2"}, p.Dependents("1"))
}
