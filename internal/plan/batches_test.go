package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// phase builds a phase for hand-made plans.
func phase(id string, deps, par []phaseid.ID) *Phase {
	return &Phase{ID: NormalizeID(id), DisplayID: phaseid.Display(id), DependsOn: deps, ParallelWith: par}
}

func TestBatches(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		parallel bool
		phases   []*Phase
		want     [][][]string
	}{
		{
			name:   "no phases",
			phases: nil,
			want:   [][][]string{},
		},
		{
			name: "no parallel column: one group per batch",
			phases: []*Phase{
				phase("1", nil, nil), phase("2A", []phaseid.ID{"1"}, nil),
				phase("2B", []phaseid.ID{"1"}, nil), phase("3", []phaseid.ID{"2a", "2b"}, nil),
			},
			want: [][][]string{{{"1"}}, {{"2A", "2B"}}, {{"3"}}},
		},
		{
			name:     "groups: naming each other, either way, transitively",
			parallel: true,
			phases: []*Phase{
				phase("1", nil, nil),
				phase("2A", []phaseid.ID{"1"}, nil), // named by 2C
				phase("2B", []phaseid.ID{"1"}, nil), // names nobody
				phase("2C", []phaseid.ID{"1"}, []phaseid.ID{"2a"}),
				phase("2D", []phaseid.ID{"1"}, []phaseid.ID{"2e"}), // 2D–2E–2F chain
				phase("2E", []phaseid.ID{"1"}, nil),
				phase("2F", []phaseid.ID{"1"}, []phaseid.ID{"2e"}),
				phase("3", []phaseid.ID{"2a"}, []phaseid.ID{"9"}), // unknown: ignored
			},
			want: [][][]string{
				{{"1"}},
				{{"2A", "2C"}, {"2B"}, {"2D", "2E", "2F"}},
				{{"3"}},
			},
		},
		{
			name:     "groups only join phases of the same batch",
			parallel: true,
			phases: []*Phase{
				phase("1", nil, []phaseid.ID{"2"}),
				phase("2", []phaseid.ID{"1"}, []phaseid.ID{"3"}),
				phase("3", nil, []phaseid.ID{"1"}),
			},
			want: [][][]string{{{"1", "3"}}, {{"2"}}},
		},
		{
			name: "layers follow the longest path",
			phases: []*Phase{
				phase("4", []phaseid.ID{"1", "3"}, nil),
				phase("1", nil, nil),
				phase("3", []phaseid.ID{"2"}, nil),
				phase("2", []phaseid.ID{"1", "1"}, nil),
			},
			want: [][][]string{{{"1"}}, {{"2"}}, {{"3"}}, {{"4"}}},
		},
		{
			name: "unknown dependencies are ignored, a cycle goes last",
			phases: []*Phase{
				phase("1", []phaseid.ID{"x"}, nil),
				phase("2", []phaseid.ID{"3"}, nil),
				phase("3", []phaseid.ID{"2"}, nil),
				phase("4", []phaseid.ID{"3"}, nil),
				phase("5", []phaseid.ID{"1"}, nil),
			},
			want: [][][]string{{{"1"}}, {{"5"}}, {{"2", "3", "4"}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := &Plan{Phases: tt.phases, HasParallelColumn: tt.parallel}
			batches := p.Batches()
			got := batchIDs(batches)
			require.Equal(t, tt.want, got)
			seen := map[*Phase]int{}
			for i, b := range batches {
				require.Equal(t, i+1, b.Index)
				var inGroups []*Phase
				for _, g := range b.Groups {
					inGroups = append(inGroups, g...)
				}
				require.ElementsMatch(t, b.Phases, inGroups)
				for _, ph := range b.Phases {
					seen[ph]++
				}
			}
			require.Len(t, seen, len(tt.phases))
		})
	}
}

func TestBatchesKeepDonePhases(t *testing.T) {
	t.Parallel()
	done := phase("1", nil, nil)
	done.Status = StatusComplete
	p := &Plan{Phases: []*Phase{done, phase("2", []phaseid.ID{"1"}, nil)}}
	require.Equal(t, [][][]string{{{"1"}}, {{"2"}}}, batchIDs(p.Batches()))
}

func TestPhaseAndDependents(t *testing.T) {
	t.Parallel()
	p, err := parseCorpus(t, "full.md")
	require.NoError(t, err)
	for _, id := range []string{"2A", "2a", "Phase 2A", "phase 2-a", " 2 A "} {
		require.NotNil(t, p.Phase(NormalizeID(id)), id)
		require.Equal(t, "Backend API", p.Phase(NormalizeID(id)).Name)
	}
	require.Nil(t, p.Phase("9"))
	require.Nil(t, p.Phase(""))

	require.Equal(t, []phaseid.ID{"2a", "2b", "2c"}, p.Dependents("1"))
	require.Equal(t, []phaseid.ID{"3"}, p.Dependents("2b"))
	require.Empty(t, p.Dependents("3"))
	require.Empty(t, p.Dependents("nope"))
}

func TestHash(t *testing.T) {
	t.Parallel()
	src := []byte("| Phase | Depends On |\n|---|---|\n| 1 | - |\n")
	p, err := Parse("p.md", src)
	require.NoError(t, err)
	sum := sha256.Sum256(src)
	require.Equal(t, hex.EncodeToString(sum[:]), p.Hash())

	q, err := Parse("other.md", append(src, '\n'))
	require.NoError(t, err)
	require.NotEqual(t, p.Hash(), q.Hash())
}

func TestValidationErrorCode(t *testing.T) {
	t.Parallel()
	plain := Problem{File: "p.md", Line: 3, Code: CodePlanInvalid, Message: "bad"}
	cycle := Problem{File: "p.md", Line: 5, Code: CodeCircularDependency, Message: "circular_dependency: 1 → 1"}
	require.Equal(t, CodePlanInvalid, (&ValidationError{Problems: []Problem{plain}}).Code())
	require.Equal(t, CodeCircularDependency, (&ValidationError{Problems: []Problem{plain, cycle}}).Code())
	require.Equal(t, "p.md:3: bad\np.md:5: circular_dependency: 1 → 1",
		(&ValidationError{Problems: []Problem{plain, cycle}}).Error())
}

// Groups spans the whole plan: phases of different layers that name each
// other share a group, a phase naming nobody is alone, and a plan without
// a Parallel column is one group.
func TestGroups(t *testing.T) {
	t.Parallel()
	src := "# P\n\n| Phase | Depends On | Parallel With |\n|---|---|---|\n| 1 | - | - |\n| 2A | 1 | 2B |\n| 2B | 1 | - |\n| 2C | 1 | - |\n| 3 | 2A | 2B |\n\n## Phase 1: a\n## Phase 2A: a\n## Phase 2B: a\n## Phase 2C: a\n## Phase 3: a\n"
	p, err := Parse("plan.md", []byte(src))
	require.NoError(t, err)
	var got [][]phaseid.ID
	for _, g := range p.Groups() {
		var ids []phaseid.ID
		for _, ph := range g {
			ids = append(ids, ph.ID)
		}
		got = append(got, ids)
	}
	require.Equal(t, [][]phaseid.ID{{"1"}, {"2a", "2b", "3"}, {"2c"}}, got)

	p, err = Parse("plan.md", []byte("# P\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n| 2 | 1 |\n\n## Phase 1: a\n## Phase 2: a\n"))
	require.NoError(t, err)
	require.Len(t, p.Groups(), 1)
	require.Len(t, p.Groups()[0], 2)
}
