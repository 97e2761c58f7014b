package plan

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
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
		out[i] = string(ph.DisplayID)
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
		id            phaseid.ID
		display       phaseid.Display
		name, est     string
		deps, par     []phaseid.ID
		status        PlanStatus
		line, section int
		tasks, done   int
		files         []string
	}
	wants := []want{
		{"0", "0", "Bootstrap", "3", nil, nil, StatusComplete, 11, 29, 2, 2, []string{"go.mod", ".github/workflows/ci.yml"}},
		{"1", "1", "Domain Model", "5", []phaseid.ID{"0"}, nil, StatusOpen, 12, 45, 3, 1, []string{"internal/notes/note.go", "internal/notes/user.go"}},
		{"2a", "2A", "Backend API", "8", []phaseid.ID{"1"}, []phaseid.ID{"2b", "2c"}, StatusOpen, 13, 71, 2, 0, []string{"internal/api/handlers.go"}},
		{"2b", "2B", "Web Client", "8", []phaseid.ID{"1"}, []phaseid.ID{"2a", "2c"}, StatusOpen, 14, 85, 2, 0, nil},
		{"2c", "2C", "CLI", "5", []phaseid.ID{"1"}, []phaseid.ID{"2a", "2b"}, StatusOpen, 15, 99, 1, 0, nil},
		{"3", "3", "Integration", "5", []phaseid.ID{"2a", "2b", "2c"}, nil, StatusOpen, 16, 106, 2, 0, nil},
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
		p.Phase(NormalizeID("2B")).Body)
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
	require.Equal(t, []phaseid.ID{"1"}, p.Phases[1].DependsOn)
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

	deps := map[phaseid.Display][]phaseid.ID{}
	for _, ph := range p.Phases {
		deps[ph.DisplayID] = ph.DependsOn
	}
	require.Equal(t, map[phaseid.Display][]phaseid.ID{
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

	twoA := p.Phase(NormalizeID("Phase 2-A"))
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
		"warnings.md:7: warning: phase 5 has no body: no section (## Phase 5: …) and no linked file; a run refuses it unless --allow-empty-phases",
		`warnings.md:17: warning: section "Phase 6" is not in the phase table; it runs all the same, as a phase of its own`,
	}, problemLines(p.Warnings))
	require.Equal(t, []string{"1", "2", "5", "6"}, ids(p.Phases))
	require.Empty(t, p.Phase("5").Body)
	require.Equal(t, []phaseid.ID{"2"}, p.Phase("6").DependsOn, "from the section's metadata")
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
			`metadata-mismatch.md:12: phase 1: section says Status "⬜ Pending" but the table says "✅" (line 5)`,
			`metadata-mismatch.md:16: phase 2A: section says Depends On "1, 2B" but the table says "1" (line 6)`,
			`metadata-mismatch.md:22: phase 2B: section says Parallel With "-" but the table says "2A" (line 7)`,
		}},
		{"parallel-depends.md", CodePlanInvalid, []string{
			`parallel-depends.md:6: phase 2A runs in parallel with 2B, but 2B depends on 2A`,
			`parallel-depends.md:8: phase 3 runs in parallel with 5, but 5 depends on 3`,
		}},
		{"bad-gate.md", CodePlanInvalid, []string{
			`bad-gate.md:10: unknown quality gate kind "deploy" (want build, lint, format, typecheck or test)`,
			`bad-gate.md:11: quality gate "lint" has no command`,
			`bad-gate.md:12: quality gate "run everything" is not written as "kind: command"`,
		}},
		{"multi-problem.md", CodeCircularDependency, []string{
			`multi-problem.md:6: unknown dependency "9" in phase 2`,
			`multi-problem.md:6: phase 2 runs in parallel with 3, but 3 depends on 2`,
			`multi-problem.md:8: duplicate phase id "3" (first defined at line 7)`,
			`multi-problem.md:9: circular_dependency: 4 → 5 → 4`,
			`multi-problem.md:14: unknown quality gate kind "deploy" (want build, lint, format, typecheck or test)`,
			`multi-problem.md:20: phase 2: section says Depends On "1" but the table says "1, 9" (line 6)`,
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
		`invalid/multi-problem.md:28: warning: section "Phase 8" is not in the phase table; it runs all the same, as a phase of its own`,
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

// Attack 5 (issue 25): the plan's title and phase names are plain text once
// parsed (ESC c, OSC sequences and U+202E dropped), whoever prints them.
func TestAttackEscapesInNamesAreDroppedAtParse(t *testing.T) {
	t.Parallel()
	src := "# Title \x1b]0;PWNED\x07 \x1bc reset \u202eevil\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n\n" +
		"## Phase 1: Name \x1bc here \u202e rtl\n\nDo it.\n"
	p, err := Parse("plan.md", []byte(src))
	require.NoError(t, err)
	for _, s := range []string{p.Title, p.Phases[0].Name} {
		require.NotContains(t, s, "\x1b")
		require.NotContains(t, s, "\u202e")
	}
	require.Contains(t, p.Title, "reset evil")
	require.Equal(t, "Name  here  rtl", p.Phases[0].Name)
}
