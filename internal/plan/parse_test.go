package plan

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// plansDir holds the test corpus.
const plansDir = "../../testdata/plans"

// parseCorpus parses a corpus file under its relative name, so problems
// read "invalid/cycle.md:6: ...".
func parseCorpus(t *testing.T, name string) (*Plan, error) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(plansDir, name))
	require.NoError(t, err)
	return Parse(name, src)
}

// ids lists the display ids of phases.
func ids(phases []*Phase) []string {
	out := make([]string, len(phases))
	for i, ph := range phases {
		out[i] = ph.DisplayID
	}
	return out
}

// batchIDs renders batches as groups of display ids.
func batchIDs(batches []Batch) [][][]string {
	out := make([][][]string, len(batches))
	for i, b := range batches {
		for _, g := range b.Groups {
			out[i] = append(out[i], ids(g))
		}
	}
	return out
}

// problemLines renders problems as their String form.
func problemLines(ps []Problem) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}

func TestParseFull(t *testing.T) {
	t.Parallel()
	p, err := parseCorpus(t, "full.md")
	require.NoError(t, err)
	require.Equal(t, "Superplan: Team Notes Service", p.Title)
	require.True(t, p.HasParallelColumn)
	require.Empty(t, p.Warnings)
	require.Equal(t, []Gate{
		{Kind: "build", Command: "go build ./...", Line: 22},
		{Kind: "lint", Command: "go vet ./...", Line: 23},
		{Kind: "format", Command: `test -z "$(gofmt -l .)"`, Line: 24},
		{Kind: "test", Command: "go test ./...", Line: 25},
	}, p.Gates)

	type want struct {
		id, display, name, est string
		deps, par              []string
		status                 PlanStatus
		line, section          int
		tasks, done            int
		files                  []string
	}
	wants := []want{
		{"0", "0", "Bootstrap", "3", nil, nil, StatusComplete, 11, 29, 2, 2, []string{"go.mod", ".github/workflows/ci.yml"}},
		{"1", "1", "Domain Model", "5", []string{"0"}, nil, StatusOpen, 12, 45, 3, 1, []string{"internal/notes/note.go", "internal/notes/user.go"}},
		{"2a", "2A", "Backend API", "8", []string{"1"}, []string{"2b", "2c"}, StatusOpen, 13, 71, 2, 0, []string{"internal/api/handlers.go"}},
		{"2b", "2B", "Web Client", "8", []string{"1"}, []string{"2a", "2c"}, StatusOpen, 14, 85, 2, 0, nil},
		{"2c", "2C", "CLI", "5", []string{"1"}, []string{"2a", "2b"}, StatusOpen, 15, 99, 1, 0, nil},
		{"3", "3", "Integration", "5", []string{"2a", "2b", "2c"}, nil, StatusOpen, 16, 106, 2, 0, nil},
	}
	require.Len(t, p.Phases, len(wants))
	for i, w := range wants {
		ph := p.Phases[i]
		require.Equal(t, w, want{
			ph.ID, ph.DisplayID, ph.Name, ph.Estimate, ph.DependsOn, ph.ParallelWith,
			ph.Status, ph.Line, ph.SectionLine, ph.Tasks, ph.TasksDone, ph.Files,
		}, "phase %d", i)
	}
	require.True(t, p.Phase("0").Done())

	require.Equal(t, [][][]string{
		{{"0"}},
		{{"1"}},
		{{"2A", "2B", "2C"}},
		{{"3"}},
	}, batchIDs(p.Batches()))
}

func TestParseFullBodyVerbatim(t *testing.T) {
	t.Parallel()
	p, err := parseCorpus(t, "full.md")
	require.NoError(t, err)
	// The body of 2B runs from its heading to the next phase heading,
	// code block included, without the blank line before "### Phase 2C".
	require.Equal(t, "### Phase 2B: Web Client\n\n"+
		"> **Depends On**: 1\n"+
		"> **Parallel With**: 2A, 2C\n\n"+
		"#### Tasks\n\n"+
		"- [ ] Note list view\n"+
		"- [ ] Editor view\n\n"+
		"```md\n## Phase 9: not a heading, this is inside a code block\n```\n",
		p.Phase("2B").Body)
	// Phase 1 ends at "## Wave 2", a non-phase heading of its level.
	require.True(t, strings.HasSuffix(p.Phase("1").Body, "`go test ./internal/notes/...` passes.\n"))
	// The last phase ends at "## Notes for reviewers".
	require.True(t, strings.HasSuffix(p.Phase("3").Body, "The end-to-end test passes in CI.\n"))

	// Every body is a verbatim slice of the source.
	src, err := os.ReadFile(filepath.Join(plansDir, "full.md"))
	require.NoError(t, err)
	for _, ph := range p.Phases {
		require.Contains(t, string(src), ph.Body, ph.ID)
		require.True(t, strings.HasPrefix(ph.Body, "#"), ph.ID)
	}
}

func TestParseMinimal(t *testing.T) {
	t.Parallel()
	p, err := parseCorpus(t, "minimal.md")
	require.NoError(t, err)
	require.Equal(t, "Minimal plan", p.Title)
	require.False(t, p.HasParallelColumn)
	require.Empty(t, p.Gates)
	require.Empty(t, p.Warnings)
	require.Equal(t, []string{"1", "2"}, ids(p.Phases))
	require.Equal(t, "Hello", p.Phases[0].Name)
	require.Equal(t, []string{"1"}, p.Phases[1].DependsOn)
	require.Equal(t, "## Phase 2: World\n\nAppend \"world\" to `hello.txt`.\n", p.Phases[1].Body)
	require.Equal(t, [][][]string{{{"1"}}, {{"2"}}}, batchIDs(p.Batches()))
}

func TestParseMessy(t *testing.T) {
	t.Parallel()
	p, err := parseCorpus(t, "messy.md")
	require.NoError(t, err)
	require.Equal(t, "messy.md", p.Title, "no H1: the file name")
	require.False(t, p.HasParallelColumn)
	require.Empty(t, p.Warnings)
	require.Equal(t, []string{"0", "1", "2A", "2B", "2-C", "3", "4", "5", "6", "7"}, ids(p.Phases))

	deps := map[string][]string{}
	for _, ph := range p.Phases {
		deps[ph.DisplayID] = ph.DependsOn
	}
	require.Equal(t, map[string][]string{
		"0":   nil,
		"1":   {"0"},                             // Phase 0 (or nothing if skipped)
		"2A":  {"1"},                             // `1`
		"2B":  {"1"},                             // Phase 1
		"2-C": {"1"},                             //
		"3":   {"2a", "2b", "2c"},                // 2A, 2B and 2C
		"4":   {"1", "2a"},                       // 1 & 2A
		"5":   {"1", "2a", "2b", "2c", "3", "4"}, // 1–4
		"6":   nil,                               // None
		"7":   {"5", "6"},                        // Phases 5-6
	}, deps)

	twoA := p.Phase("Phase 2-A")
	require.Equal(t, "Backend", twoA.Name, "name from the heading")
	require.Equal(t, "5", twoA.Estimate, "the table's estimate wins over (est 8)")
	require.Equal(t, 2, twoA.Tasks)
	require.Equal(t, 1, twoA.TasksDone)
	require.Equal(t, []string{"api/server.go"}, twoA.Files)
	require.Equal(t, "Frontend", p.Phase("2b").Name, "PHASE 2B - Frontend")
	require.Equal(t, 2, p.Phase("2b").Tasks, "ordered task list")
	require.Equal(t, "Setup", p.Phase("0").Name)
	require.Equal(t, StatusOpen, p.Phase("0").Status, "unbolded Status: in prose is not metadata")
	require.Equal(t, StatusComplete, p.Phase("3").Status, "✅ in the heading")
	require.Equal(t, StatusSkipped, p.Phase("4").Status, "blockquote metadata")
	require.Equal(t, 1, p.Phase("6").Tasks, "a deeper heading naming its own phase stays in the body")
	require.Contains(t, p.Phase("6").Body, "#### Phase 6 checklist")
	require.Equal(t, "Retro", p.Phase("7").Name, "setext heading")
	require.Equal(t, 66, p.Phase("7").SectionLine)
	require.Equal(t, "Phase 7: Retro\n--------------\n\nTalk about it.\n", p.Phase("7").Body)

	require.Equal(t, [][][]string{
		{{"0", "6"}},
		{{"1"}},
		{{"2A", "2B", "2-C"}},
		{{"3", "4"}},
		{{"5"}},
		{{"7"}},
	}, batchIDs(p.Batches()))
}

func TestParseWarnings(t *testing.T) {
	t.Parallel()
	p, err := parseCorpus(t, "warnings.md")
	require.NoError(t, err, "warnings alone are not an error")
	require.Equal(t, []string{
		"warnings.md:7: warning: phase 5 is in the table but has no section",
		`warnings.md:17: warning: section "Phase 6" is not in the phase table`,
	}, problemLines(p.Warnings))
	require.Equal(t, []string{"1", "2", "5", "6"}, ids(p.Phases))
	require.Empty(t, p.Phase("5").Body)
	require.Equal(t, []string{"2"}, p.Phase("6").DependsOn, "from the section's metadata")
	require.Equal(t, 0, p.Phase("6").Line)
	require.Equal(t, [][][]string{{{"1"}}, {{"2"}}, {{"5", "6"}}}, batchIDs(p.Batches()))
}

func TestParseInvalid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file     string
		code     string
		problems []string
	}{
		{"no-table.md", CodePlanInvalid, []string{
			`no-table.md:1: no phase table found (need a table with "Phase" and "Depends On" columns)`,
		}},
		{"unknown-dep.md", CodePlanInvalid, []string{
			`unknown-dep.md:7: unknown dependency "7" in phase 3`,
		}},
		{"duplicate-id.md", CodePlanInvalid, []string{
			`duplicate-id.md:7: duplicate phase id "2-A" (first defined at line 6)`,
		}},
		{"cycle.md", CodeCircularDependency, []string{
			`cycle.md:6: circular_dependency: 2A → 3 → 4 → 2A`,
		}},
		{"self-cycle.md", CodeCircularDependency, []string{
			`self-cycle.md:6: circular_dependency: 2 → 2`,
		}},
		{"metadata-mismatch.md", CodePlanInvalid, []string{
			`metadata-mismatch.md:12: phase 1: section says Status "⬜ Pending" but the table says "✅"`,
			`metadata-mismatch.md:16: phase 2A: section says Depends On "1, 2B" but the table says "1"`,
			`metadata-mismatch.md:22: phase 2B: section says Parallel With "-" but the table says "2A"`,
		}},
		{"parallel-depends.md", CodePlanInvalid, []string{
			`parallel-depends.md:6: phase 2A runs in parallel with 2B, but 2B depends on 2A`,
			`parallel-depends.md:8: phase 3 runs in parallel with 5, but 5 depends on 3`,
		}},
		{"bad-gate.md", CodePlanInvalid, []string{
			`bad-gate.md:10: unknown quality gate kind "deploy" (want build, lint, format, typecheck or test)`,
			`bad-gate.md:11: quality gate "lint" has no command`,
			`bad-gate.md:12: quality gate "run everything" is not written as "kind: command"`,
			`bad-gate.md:13: duplicate quality gate "test" (first defined at line 9)`,
		}},
		{"multi-problem.md", CodeCircularDependency, []string{
			`multi-problem.md:6: unknown dependency "9" in phase 2`,
			`multi-problem.md:6: phase 2 runs in parallel with 3, but 3 depends on 2`,
			`multi-problem.md:8: duplicate phase id "3" (first defined at line 7)`,
			`multi-problem.md:9: circular_dependency: 4 → 5 → 4`,
			`multi-problem.md:14: unknown quality gate kind "deploy" (want build, lint, format, typecheck or test)`,
			`multi-problem.md:20: phase 2: section says Depends On "1" but the table says "1, 9"`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(filepath.Join(plansDir, "invalid", tt.file))
			require.NoError(t, err)
			p, err := Parse(tt.file, src)
			require.NotNil(t, p, "the plan as far as it could be read")
			var verr *ValidationError
			require.True(t, errors.As(err, &verr), "got %v", err)
			require.Equal(t, tt.problems, problemLines(verr.Problems))
			require.Equal(t, strings.Join(tt.problems, "\n"), verr.Error())
			require.Equal(t, tt.code, verr.Code())
			for _, pr := range verr.Problems {
				require.False(t, pr.Warning)
				require.Equal(t, tt.file, pr.File)
			}
		})
	}
}

func TestParseMultiProblemWarningsKept(t *testing.T) {
	t.Parallel()
	p, err := parseCorpus(t, "invalid/multi-problem.md")
	require.Error(t, err)
	require.Equal(t, []string{
		`invalid/multi-problem.md:28: warning: section "Phase 8" is not in the phase table`,
	}, problemLines(p.Warnings))
}

func TestParseFileUsesGivenPath(t *testing.T) {
	t.Parallel()
	path := filepath.Join(plansDir, "invalid", "unknown-dep.md")
	p, err := ParseFile(path)
	require.Error(t, err)
	require.Equal(t, path, p.Path)
	require.Equal(t, path+`:7: unknown dependency "7" in phase 3`, err.Error())

	_, err = ParseFile(filepath.Join(t.TempDir(), "missing.md"))
	require.ErrorIs(t, err, os.ErrNotExist)
	var verr *ValidationError
	require.False(t, errors.As(err, &verr), "a read error is not a validation error")
}

func TestParseLineEndingsAndBOM(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(filepath.Join(plansDir, "full.md"))
	require.NoError(t, err)
	want, err := Parse("full.md", src)
	require.NoError(t, err)

	crlf := append([]byte("\xef\xbb\xbf"), []byte(strings.ReplaceAll(string(src), "\n", "\r\n"))...)
	got, err := Parse("full.md", crlf)
	require.NoError(t, err)
	require.Equal(t, want.Title, got.Title)
	require.Equal(t, want.Gates, got.Gates)
	require.Len(t, got.Phases, len(want.Phases))
	for i, ph := range got.Phases {
		w := want.Phases[i]
		require.Equal(t, w.DependsOn, ph.DependsOn)
		require.Equal(t, w.ParallelWith, ph.ParallelWith)
		require.Equal(t, w.Status, ph.Status)
		require.Equal(t, w.Line, ph.Line)
		require.Equal(t, w.SectionLine, ph.SectionLine)
		require.Equal(t, w.Tasks, ph.Tasks)
		require.Equal(t, w.Files, ph.Files)
		require.Equal(t, strings.ReplaceAll(w.Body, "\n", "\r\n"), ph.Body)
	}
	require.NotEqual(t, want.Hash(), got.Hash())
}

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
			warnings: []string{"p.md:3: warning: phase 1 is in the table but has no section"},
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
			warnings: []string{`p.md:10: warning: section "Phase 3" is not in the phase table`},
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
				require.Equal(t, []string{"1"}, p.Phase("2").DependsOn)
			},
		},
		{
			name: "optional dependency on a present phase",
			src: "| Phase | Depends On |\n|---|---|\n| 0 | - |\n| 1 | - |\n\n" +
				"## Phase 0\n\n## Phase 1\n\n> **Depends On**: Phase 0 (or nothing if skipped)\n",
			phases:   []string{"0", "1"},
			problems: []string{`p.md:10: phase 1: section says Depends On "Phase 0 (or nothing if skipped)" but the table says "-"`},
		},
		{
			name: "a number names the phases it numbers",
			src: "| Phase | Depends On |\n|---|---|\n| 1 | - |\n| 2A | 1 |\n| 2B | 1 |\n| 3 | Phase 2 |\n| 4 | 7 |\n\n" +
				"## Phase 1\n\n## Phase 2A\n\n## Phase 2B\n\n## Phase 3\n\n> **Depends On**: 2A, 2B\n\n## Phase 4\n",
			phases:   []string{"1", "2A", "2B", "3", "4"},
			problems: []string{`p.md:7: unknown dependency "7" in phase 4`},
			check: func(t *testing.T, p *Plan) {
				require.Equal(t, []string{"2a", "2b"}, p.Phase("3").DependsOn)
			},
		},
		{
			name:   "header cells with asides and synonyms",
			src:    "| Phase (id) | Blocked by | Est. (pts) |\n|---|---|---|\n| 1 | - | 3 |\n| 2 | 1 | 5 |\n\n## Phase 1\n\n## Phase 2\n",
			phases: []string{"1", "2"},
			check: func(t *testing.T, p *Plan) {
				require.Equal(t, []string{"1"}, p.Phase("2").DependsOn)
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
			problems: []string{`p.md:15: phase 3: section says Depends upon "Phase 1" but the table says "2"`},
			check: func(t *testing.T, p *Plan) {
				require.Equal(t, []string{"1"}, p.Phase("2").ParallelWith)
			},
		},
		{
			name:   "line breaks in cells separate items",
			src:    "| Phase | Name | Depends On |\n|---|---|---|\n| 1 | Setup | - |\n| 2 | Two | - |\n| 3 | Back<br>end | 1<br>2 |\n\n## Phase 1\n\n## Phase 2\n\n## Phase 3\n",
			phases: []string{"1", "2", "3"},
			check: func(t *testing.T, p *Plan) {
				require.Equal(t, []string{"1", "2"}, p.Phase("3").DependsOn)
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
