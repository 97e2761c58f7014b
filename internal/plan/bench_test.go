package plan

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// largePlan generates a plan of n phases in waves of five: each phase
// depends on the whole previous wave and runs in parallel with its wave,
// with a section holding metadata, tasks and a file.
func largePlan(n int) string {
	var b strings.Builder
	b.WriteString("# Large plan\n\n| Phase | Name | Depends On | Parallel With | Estimate | Status |\n|---|---|---|---|---|---|\n")
	id := func(i int) string { return fmt.Sprintf("%d%c", i/5, 'A'+rune(i%5)) }
	wave := func(i int) []string {
		var ids []string
		for j := i / 5 * 5; j < i/5*5+5 && j < n; j++ {
			ids = append(ids, id(j))
		}
		return ids
	}
	deps := func(i int) string {
		if i < 5 {
			return "-"
		}
		return strings.Join(wave(i-5), ", ")
	}
	for i := range n {
		fmt.Fprintf(&b, "| %s | Part %d | %s | %s | 3 | ⬜ |\n", id(i), i, deps(i), strings.Join(wave(i), ", "))
	}
	b.WriteString("\n## Quality Gates\n\n- test: `go test ./...`\n- lint: `go vet ./...`\n")
	for i := range n {
		fmt.Fprintf(&b, "\n## Phase %s: Part %d\n\n> **Depends On**: %s\n\n### Tasks\n\n- [ ] write it\n- [x] plan it\n\n##### File: `pkg/p%d.go`\n\nSome text about the phase.\n",
			id(i), i, deps(i), i)
	}
	return b.String()
}

func TestParseLarge(t *testing.T) {
	t.Parallel()
	src := []byte(largePlan(500))
	start := time.Now()
	p, err := Parse("large.md", src)
	elapsed := time.Since(start)
	require.NoError(t, err)
	require.Len(t, p.Phases, 500)
	batches := p.Batches()
	require.Len(t, batches, 100)
	for _, b := range batches {
		require.Len(t, b.Groups, 1)
		require.Len(t, b.Groups[0], 5)
	}
	require.Equal(t, 2, p.Phases[499].Tasks)
	// Generous bound for a loaded CI machine under -race; typically ~10ms.
	require.Less(t, elapsed, 5*time.Second)
}

func BenchmarkParse(b *testing.B) {
	src := []byte(largePlan(500))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		p, err := Parse("large.md", src)
		if err != nil || len(p.Phases) != 500 {
			b.Fatal(err)
		}
	}
}

func BenchmarkBatches(b *testing.B) {
	p, err := Parse("large.md", []byte(largePlan(500)))
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		p.Batches()
	}
}

// chainedPlan generates a plan of n phases in layers of ten, the shape of
// bench/scale.sh: phase L<k>P<j> depends on L<k-1>P<j> and L<k-2>P<j>,
// and every phase has a short section.
func chainedPlan(n int) string {
	var b strings.Builder
	b.WriteString("# Chained plan\n\n| Phase | Name | Depends On |\n|---|---|---|\n")
	for i := range n {
		k, j := i/10+1, i%10+1
		deps := "-"
		switch {
		case k > 2:
			deps = fmt.Sprintf("L%dP%d, L%dP%d", k-1, j, k-2, j)
		case k > 1:
			deps = fmt.Sprintf("L%dP%d", k-1, j)
		}
		fmt.Fprintf(&b, "| L%dP%d | Layer %d part %d | %s |\n", k, j, k, j, deps)
	}
	for i := range n {
		k, j := i/10+1, i%10+1
		fmt.Fprintf(&b, "\n## Phase L%dP%d: Layer %d part %d\n\n- [ ] Write `L%dP%d.txt`.\n", k, j, k, j, k, j)
	}
	return b.String()
}

// BenchmarkParse10k is validate's parse of a 10,000-phase plan.
func BenchmarkParse10k(b *testing.B) {
	src := []byte(chainedPlan(10000))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		p, err := Parse("chained.md", src)
		if err != nil || len(p.Phases) != 10000 {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseLarge scales largePlan (Parallel With, section metadata
// compared with the table): the time per phase should not grow with n.
func BenchmarkParseLarge(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			src := []byte(largePlan(n))
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				p, err := Parse("large.md", src)
				if err != nil || len(p.Phases) != n {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkIndex10k builds the index of a 10,000-phase plan and asks it
// about every phase, as validate and the start of a run do.
func BenchmarkIndex10k(b *testing.B) {
	p, err := Parse("chained.md", []byte(chainedPlan(10000)))
	require.NoError(b, err)
	phases := p.Phases
	b.ReportAllocs()
	for b.Loop() {
		p := &Plan{Phases: phases}
		for _, ph := range phases {
			if p.Phase(ph.ID) != ph {
				b.Fatal("phase not found")
			}
			p.Dependents(ph.ID)
		}
	}
}

// BenchmarkBatches10k is the batches of a 10,000-phase plan of 1,000 layers.
func BenchmarkBatches10k(b *testing.B) {
	p, err := Parse("chained.md", []byte(chainedPlan(10000)))
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		if len(p.Batches()) != 1000 {
			b.Fatal("want 1000 batches")
		}
	}
}
