package plan

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// TestParseSnippets checks one reading at a time on a small plan.
func TestParseSnippets(t *testing.T) {
	t.Parallel()
	const table = "| Phase | Depends On |\n|---|---|\n| 1 | - |\n| 2 | 1 |\n\n"
	tests := []struct {
		name     string
		src      string
		phases   []string
		problems []string
		warnings []string
		check    func(t *testing.T, p *Plan)
	}{
		{
			name:     "empty input",
			src:      "",
			problems: []string{`p.md:1: no phase table found (need a table with "Phase" and "Depends On" columns)`},
		},
		{
			name:     "table without rows",
			src:      "# T\n\n| Phase | Depends On |\n|---|---|\n",
			problems: []string{"p.md:3: the phase table lists no phases"},
		},
		{
			name:     "row without an id",
			src:      "| Phase | Depends On |\n|---|---|\n| 1 | - |\n| — | 1 |\n",
			phases:   []string{"1"},
			problems: []string{"p.md:4: table row has no phase id"},
			warnings: []string{"p.md:3: warning: phase 1 has no body: no section (## Phase 1: …) and no linked file; a run refuses it unless --allow-empty-phases"},
		},
		{
			name:   "heading words are not phases",
			src:    table + "## Phase Overview\n\n## Phase 1: A\n\n## Phases\n\n## Phase 2\n",
			phases: []string{"1", "2"},
			check: func(t *testing.T, p *Plan) {
				require.Equal(t, "## Phase 1: A\n", p.Phase("1").Body)
				require.Equal(t, "", p.Phase("2").Name)
			},
		},
		{
			name:   "group heading over nested phases",
			src:    table + "## Phase 0: Wave one\n\n### Phase 1: A\n\ntext\n\n### Phase 2: B\n",
			phases: []string{"1", "2"},
			check: func(t *testing.T, p *Plan) {
				require.Equal(t, "### Phase 1: A\n\ntext\n", p.Phase("1").Body)
			},
		},
		{
			name:     "duplicate section",
			src:      table + "## Phase 1: A\n\n## Phase 2: B\n\n## Phase 1: again\n",
			phases:   []string{"1", "2"},
			problems: []string{`p.md:10: duplicate phase id "1" (first defined at line 6)`},
		},
		{
			name:   "title H1 naming a phase is the title",
			src:    "# Phase 2 rewrite\n\n" + table + "## Phase 1: A\n\n## Phase 2: B\n",
			phases: []string{"1", "2"},
			check: func(t *testing.T, p *Plan) {
				require.Equal(t, "Phase 2 rewrite", p.Title)
				require.Equal(t, "## Phase 2: B\n", p.Phase("2").Body)
			},
		},
		{
			name:   "quality gates inside a phase are its body",
			src:    table + "## Phase 1: A\n\n### Quality Gates\n\n- [ ] tests pass\n\n## Phase 2: B\n",
			phases: []string{"1", "2"},
			check: func(t *testing.T, p *Plan) {
				require.Empty(t, p.Gates)
				require.Equal(t, 1, p.Phase("1").Tasks)
			},
		},
		{
			name: "gate spellings",
			src: table + "## Quality Gates\n\n- **test**: `go test ./...`\n- Lint: golangci-lint run\n" +
				"- [ ] type-check: ``tsc --noEmit``\n- **fmt:** `gofmt -l .`\n\nProse about gates.\n\n## Phase 1: A\n\n## Phase 2: B\n",
			phases: []string{"1", "2"},
			check: func(t *testing.T, p *Plan) {
				require.Equal(t, []Gate{
					{Kind: "test", Command: "go test ./...", Line: 8},
					{Kind: "lint", Command: "golangci-lint run", Line: 9},
					{Kind: "typecheck", Command: "tsc --noEmit", Line: 10},
					{Kind: "format", Command: "gofmt -l .", Line: 11},
				}, p.Gates)
			},
		},
		{
			// Found by FuzzParse: the outer section was never closed.
			name:   "gates section inside a gates section",
			src:    table + "# Gates\n\n- build: `make`\n\n## Quality Gates\n\n- test: `make test`\n\n# Phase 1\n\n# Phase 2\n",
			phases: []string{"1", "2"},
			check: func(t *testing.T, p *Plan) {
				require.Equal(t, []Gate{
					{Kind: "build", Command: "make", Line: 8},
					{Kind: "test", Command: "make test", Line: 12},
				}, p.Gates)
			},
		},
		{
			name: "section-only phase with unknown dependency",
			src:  table + "## Phase 1: A\n\n## Phase 2: B\n\n## Phase 3: C\n\n> **Depends On**: 2, 8\n",
			problems: []string{
				`p.md:12: unknown dependency "8" in phase 3`,
			},
			warnings: []string{`p.md:10: warning: section "Phase 3" is not in the phase table; it runs all the same, as a phase of its own`},
			phases:   []string{"1", "2", "3"},
		},
		{
			name: "range naming nothing",
			src:  "| Phase | Depends On |\n|---|---|\n| 1 | - |\n| 2 | 5-7 |\n\n## Phase 1\n\n## Phase 2\n",
			problems: []string{
				`p.md:4: unknown dependency "5-7" in phase 2`,
			},
			phases: []string{"1", "2"},
		},
		{
			name: "unknown parallel phase and self",
			src:  "| Phase | Depends On | Parallel With |\n|---|---|---|\n| 1 | - | 1, 9 |\n\n## Phase 1\n",
			problems: []string{
				`p.md:3: unknown phase "9" in Parallel With of phase 1`,
			},
			phases: []string{"1"},
			check: func(t *testing.T, p *Plan) {
				require.Empty(t, p.Phase("1").ParallelWith)
			},
		},
		{
			name: "metadata on one line, status from section",
			src: "| Phase | Name | Depends On | Status |\n|---|---|---|---|\n| 1 | | - | |\n| 2 | | 1 | |\n\n" +
				"## Phase 1: Alpha\n\n> **Depends On**: None · **Status**: Done · **Estimate**: 2d\n\n## Phase 2 — Beta\n\n**Status:** ⏭️ Skipped\n",
			phases: []string{"1", "2"},
			check: func(t *testing.T, p *Plan) {
				require.Equal(t, "Alpha", p.Phase("1").Name)
				require.Equal(t, StatusComplete, p.Phase("1").Status)
				require.Equal(t, "2d", p.Phase("1").Estimate)
				require.Equal(t, StatusSkipped, p.Phase("2").Status)
			},
		},
		{
			name: "code blocks hide headings and tables",
			src: "```\n| Phase | Depends On |\n|---|---|\n| 9 | - |\n```\n\n" + table +
				"## Phase 1: A\n\n```\n## Phase 2: fake\n- [ ] fake task\n```\n\n## Phase 2: B\n",
			phases: []string{"1", "2"},
			check: func(t *testing.T, p *Plan) {
				require.Equal(t, 9, p.Phase("1").Line)
				require.Equal(t, 0, p.Phase("1").Tasks)
			},
		},
		{
			// The superplan template's Phase 1 says "Phase 0 (or nothing if
			// skipped)"; a plan without Phase 0 means nothing by it.
			name: "optional dependency on an absent phase",
			src: "| Phase | Depends On |\n|---|---|\n| 1 | - |\n| 2 | 1, 0 (if any) |\n\n" +
				"## Phase 1\n\n> **Depends On**: Phase 0 (or nothing if skipped)\n\n## Phase 2\n",
			phases: []string{"1", "2"},
			check: func(t *testing.T, p *Plan) {
				require.Empty(t, p.Phase("1").DependsOn)
				require.Equal(t, []phaseid.ID{"1"}, p.Phase("2").DependsOn)
			},
		},
		{
			name: "optional dependency on a present phase",
			src: "| Phase | Depends On |\n|---|---|\n| 0 | - |\n| 1 | - |\n\n" +
				"## Phase 0\n\n## Phase 1\n\n> **Depends On**: Phase 0 (or nothing if skipped)\n",
			phases:   []string{"0", "1"},
			problems: []string{`p.md:10: phase 1: section says Depends On "Phase 0 (or nothing if skipped)" but the table says "-" (line 4)`},
		},
		{
			name: "a number names the phases it numbers",
			src: "| Phase | Depends On |\n|---|---|\n| 1 | - |\n| 2A | 1 |\n| 2B | 1 |\n| 3 | Phase 2 |\n| 4 | 7 |\n\n" +
				"## Phase 1\n\n## Phase 2A\n\n## Phase 2B\n\n## Phase 3\n\n> **Depends On**: 2A, 2B\n\n## Phase 4\n",
			phases:   []string{"1", "2A", "2B", "3", "4"},
			problems: []string{`p.md:7: unknown dependency "7" in phase 4`},
			check: func(t *testing.T, p *Plan) {
				require.Equal(t, []phaseid.ID{"2a", "2b"}, p.Phase("3").DependsOn)
			},
		},
		{
			name:   "header cells with asides and synonyms",
			src:    "| Phase (id) | Blocked by | Est. (pts) |\n|---|---|---|\n| 1 | - | 3 |\n| 2 | 1 | 5 |\n\n## Phase 1\n\n## Phase 2\n",
			phases: []string{"1", "2"},
			check: func(t *testing.T, p *Plan) {
				require.Equal(t, []phaseid.ID{"1"}, p.Phase("2").DependsOn)
				require.Equal(t, "5", p.Phase("2").Estimate)
			},
		},
		{
			name: "metadata key synonyms",
			src: "| Phase | Depends On |\n|---|---|\n| 1 | - |\n| 2 | - |\n| 3 | 1 |\n\n## Phase 1\n\n" +
				"## Phase 2\n\nCan run in parallel with: 1\n\n## Phase 3\n\n> Blocked by: Phase 1\n",
			phases: []string{"1", "2", "3"},
			check: func(t *testing.T, p *Plan) {
				require.Empty(t, p.Phase("2").ParallelWith, "not metadata: the key is not bold")
				require.False(t, p.HasParallelColumn)
			},
		},
		{
			name: "metadata key synonyms in a blockquote",
			src: "| Phase | Depends On |\n|---|---|\n| 1 | - |\n| 2 | - |\n| 3 | 2 |\n\n## Phase 1\n\n" +
				"## Phase 2\n\n> Can run in parallel with: 1\n\n## Phase 3\n\n> Depends upon: Phase 1\n> Requires: Node 20\n> Blocked by: legal review\n",
			phases:   []string{"1", "2", "3"},
			problems: []string{`p.md:15: phase 3: section says Depends upon "Phase 1" but the table says "2" (line 5)`},
			check: func(t *testing.T, p *Plan) {
				require.Equal(t, []phaseid.ID{"1"}, p.Phase("2").ParallelWith)
			},
		},
		{
			name:   "line breaks in cells separate items",
			src:    "| Phase | Name | Depends On |\n|---|---|---|\n| 1 | Setup | - |\n| 2 | Two | - |\n| 3 | Back<br>end | 1<br>2 |\n\n## Phase 1\n\n## Phase 2\n\n## Phase 3\n",
			phases: []string{"1", "2", "3"},
			check: func(t *testing.T, p *Plan) {
				require.Equal(t, []phaseid.ID{"1", "2"}, p.Phase("3").DependsOn)
				require.Equal(t, "Back end", p.Phase("3").Name)
			},
		},
		{
			name:   "a sentence right below the table is not a row",
			src:    "| Phase | Depends On |\n|---|---|\n| 1 | - |\n| 2 | 1 |\nPhase 3 comes later.\n\n## Phase 1\n\n## Phase 2\n",
			phases: []string{"1", "2"},
		},
		{
			name: "file entries with asides",
			src: table + "## Phase 1\n\n##### File: `src/a.ts` (CREATE)\n\n##### File: b.go (new)\n\n" +
				"##### File: app/(auth)/page.tsx — route\n\n##### **File:** `c.go`\n\n##### File: `d.ts` NEW\n\n## Phase 2\n",
			phases: []string{"1", "2"},
			check: func(t *testing.T, p *Plan) {
				require.Equal(t, []string{"src/a.ts", "b.go", "app/(auth)/page.tsx", "c.go", "d.ts"}, p.Phase("1").Files)
			},
		},
		{
			name:   "section parallel metadata turns groups on",
			src:    "| Phase | Depends On |\n|---|---|\n| 1 | - |\n| 2 | - |\n| 3 | - |\n\n## Phase 1\n> Can Run With: 2\n\n## Phase 2\n\n## Phase 3\n",
			phases: []string{"1", "2", "3"},
			check: func(t *testing.T, p *Plan) {
				require.True(t, p.HasParallelColumn)
				require.Equal(t, [][][]string{{{"1", "2"}, {"3"}}}, batchIDs(p.Batches()))
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := Parse("p.md", []byte(tt.src))
			require.NotNil(t, p)
			if tt.problems == nil {
				require.NoError(t, err)
			} else {
				var verr *ValidationError
				require.True(t, errors.As(err, &verr), "got %v", err)
				require.Equal(t, tt.problems, problemLines(verr.Problems))
			}
			if tt.warnings != nil {
				require.Equal(t, tt.warnings, problemLines(p.Warnings))
			}
			require.Equal(t, tt.phases, nilIfEmpty(ids(p.Phases)))
			if tt.check != nil {
				tt.check(t, p)
			}
		})
	}
}

// nilIfEmpty lets table rows leave an empty phase list out.
func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}
