package plan

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// FuzzParse feeds the parser arbitrary markdown, seeded with the whole
// corpus. It calls parse, not Parse, so a panic is found rather than
// recovered. Whatever the input: no panic, problems have lines inside the
// file, bodies are slices of the source, and Batches puts every phase in
// exactly one batch and one group.
func FuzzParse(f *testing.F) {
	err := filepath.WalkDir(plansDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		src, err := os.ReadFile(path)
		if err == nil {
			f.Add(src)
		}
		return err
	})
	require.NoError(f, err)
	f.Add([]byte(largePlan(20)))

	f.Fuzz(func(t *testing.T, src []byte) {
		timer := time.AfterFunc(3*time.Second, func() {
			_ = os.WriteFile(fmt.Sprintf("/tmp/hang-%d.md", os.Getpid()), src, 0o644)
			panic("slow input")
		})
		defer timer.Stop()
		p, err := parse("fuzz.md", src, nil)
		require.NotNil(t, p)
		lines := bytes.Count(src, []byte("\n")) + 1
		var problems []Problem
		if err != nil {
			verr, ok := err.(*ValidationError)
			require.True(t, ok, "error %T", err)
			require.NotEmpty(t, verr.Problems)
			problems = verr.Problems
		}
		for _, pr := range append(problems, p.Warnings...) {
			require.True(t, pr.Line >= 1 && pr.Line <= lines, "line %d of %d: %s", pr.Line, lines, pr)
		}
		ids := map[phaseid.ID]bool{}
		for _, ph := range p.Phases {
			require.NotEmpty(t, ph.ID)
			require.False(t, ids[ph.ID], "duplicate phase %q", ph.ID)
			ids[ph.ID] = true
			require.True(t, bytes.Contains(src, []byte(ph.Body)), "body of %q is not in the source", ph.ID)
		}
		seen := map[*Phase]int{}
		for _, b := range p.Batches() {
			require.NotEmpty(t, b.Phases)
			grouped := 0
			for _, g := range b.Groups {
				require.NotEmpty(t, g)
				grouped += len(g)
			}
			require.Equal(t, len(b.Phases), grouped)
			for _, ph := range b.Phases {
				seen[ph]++
			}
		}
		require.Len(t, seen, len(p.Phases))
		for ph, n := range seen {
			require.Equal(t, 1, n, "phase %q in %d batches", ph.ID, n)
		}
		if err == nil {
			// A valid plan's batches respect its dependencies.
			batchOf := map[phaseid.ID]int{}
			for _, b := range p.Batches() {
				for _, ph := range b.Phases {
					batchOf[ph.ID] = b.Index
				}
			}
			for _, ph := range p.Phases {
				for _, dep := range ph.DependsOn {
					require.Less(t, batchOf[dep], batchOf[ph.ID])
				}
			}
		}
	})
}
