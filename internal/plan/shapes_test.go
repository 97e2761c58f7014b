package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The shapes of real plans that autobuild once misread: an execution ledger
// keyed F1…, a table keyed by work units, phase bodies in linked files, a
// template whose table sits in a code fence, prose blockquotes, dotted ids.
// Each is read from disk with ParseFile, so linked files are followed.
func TestParseRealPlanShapes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file     string
		phases   []string
		batches  [][][]string
		warnings []string
		errors   []string
	}{
		{
			// Letter ranges with an en dash and a hyphen, trailing words,
			// "all", "Yes: with F3" and "Yes (F7)", Waived, "### F1 — Name".
			file: "ledger.md",
			phases: []string{
				`F1 "Schema baseline" deps= par= est="" status="complete" tasks=0/0 files= row=7 section=18`,
				`F2 "Price model" deps=f1 par=f3 est="" status="" tasks=0/2 files= row=8 section=22`,
				`F3 "Tax tables" deps=f1 par=f2 est="" status="" tasks=0/1 files= row=9 section=27`,
				`F4 "Invoice engine" deps=f1,f2,f3 par= est="" status="" tasks=1/2 files= row=10 section=31`,
				`F5 "Proration" deps=f1,f2,f3 par= est="" status="skipped" tasks=0/0 files= row=11 section=36`,
				`F6 "Dunning" deps=f4 par=f7 est="" status="" tasks=0/1 files= row=12 section=40`,
				`F7 "Exports" deps=f1,f2,f3,f4 par=f6 est="" status="" tasks=0/1 files= row=13 section=44`,
				`F8 "Cut-over" deps=f1,f2,f3,f4,f5,f6,f7 par= est="" status="" tasks=0/1 files= row=14 section=48`,
			},
			batches: [][][]string{{{"F1"}}, {{"F2", "F3"}}, {{"F4"}, {"F5"}}, {{"F6", "F7"}}, {{"F8"}}},
		},
		{
			// The WU column keys the phases because Phase repeats; prefixed
			// ranges with and without the second prefix; Deferred.
			file: "workunits.md",
			phases: []string{
				`WU-01 "Auth screens" deps= par= est="" status="" tasks=0/1 files= row=7 section=14`,
				`WU-02 "Session store" deps=wu01 par= est="" status="" tasks=0/1 files= row=8 section=18`,
				`WU-03 "Token refresh" deps=wu01 par= est="" status="" tasks=0/1 files= row=9 section=22`,
				`WU-04 "Profile setup" deps=wu01,wu02,wu03 par= est="" status="" tasks=0/1 files= row=10 section=26`,
				`WU-05 "Avatar upload" deps=wu01,wu02,wu03 par= est="" status="skipped" tasks=0/1 files= row=11 section=30`,
				`WU-06 "Release" deps=wu04,wu05 par= est="" status="" tasks=0/1 files= row=12 section=34`,
			},
			batches: [][][]string{{{"WU-01"}}, {{"WU-02", "WU-03"}}, {{"WU-04", "WU-05"}}, {{"WU-06"}}},
		},
		{
			// Bodies, tasks and files come from the linked phase files.
			file: "linked.md",
			phases: []string{
				`1 "Domain model" deps= par= est="" status="" tasks=0/2 files=inventory/domain.go row=7 section=0`,
				`2 "Persistence" deps=1 par= est="" status="" tasks=1/2 files= row=8 section=0`,
				`3 "HTTP API" deps=2 par= est="" status="" tasks=0/1 files= row=9 section=0`,
			},
			batches: [][][]string{{{"1"}}, {{"2"}}, {{"3"}}},
		},
		{
			// The template's table is in a code fence: one error says so.
			file: "template.md",
			phases: []string{
				`0 "Bootstrap" deps= par= est="" status="" tasks=0/1 files= row=0 section=15`,
			},
			batches: [][][]string{{{"0"}}},
			errors: []string{"template.md:6: no phase table found: the phase table at line 6 is inside a code fence (```), " +
				"so markdown shows it as code, not as a table; remove the fence lines around it"},
		},
		{
			// "Yes: with Phase 3", N/A, and "> **Status:** …" prose at the
			// end of a section, which is body, not metadata.
			file: "blockquotes.md",
			phases: []string{
				`1 "Data access" deps= par= est="" status="complete" tasks=1/1 files= row=5 section=11`,
				`2 "Charts" deps=1 par=3 est="" status="" tasks=0/1 files= row=6 section=18`,
				`3 "Filters" deps=1 par=2 est="" status="" tasks=0/1 files= row=7 section=26`,
				`4 "Export" deps=2,3 par= est="" status="skipped" tasks=0/0 files= row=8 section=30`,
				`5 "Polish" deps=2,3 par= est="" status="complete" tasks=2/2 files= row=9 section=34`,
			},
			batches: [][][]string{{{"1"}}, {{"2", "3"}}, {{"4"}, {"5"}}},
		},
		{
			// 1.1 and 11 are two phases, 0.5 keeps its dot, "### 1.1 Lexer
			// errors" is a section and "## 1. Background" is not.
			file: "dotted.md",
			phases: []string{
				`0.5 "Spike" deps= par= est="" status="" tasks=0/1 files= row=5 section=15`,
				`1 "Lexer" deps=0.5 par= est="" status="" tasks=0/1 files= row=6 section=19`,
				`1.1 "Lexer errors" deps=1 par= est="" status="" tasks=0/1 files= row=7 section=23`,
				`1.2 "Lexer fuzzing" deps=1 par= est="" status="" tasks=0/1 files= row=8 section=27`,
				`11 "Parser" deps=1.1,1.2 par= est="" status="" tasks=0/1 files= row=9 section=31`,
			},
			batches: [][][]string{{{"0.5"}}, {{"1"}}, {{"1.1", "1.2"}}, {{"11"}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(plansDir, "real", tt.file)
			p, err := ParseFile(path)
			if tt.errors == nil {
				require.NoError(t, err)
			} else {
				var verr *ValidationError
				require.ErrorAs(t, err, &verr)
				var got []string
				for _, pr := range verr.Problems {
					got = append(got, strings.TrimPrefix(pr.String(), filepath.Join(plansDir, "real")+"/"))
				}
				require.Equal(t, tt.errors, got)
			}
			require.Equal(t, tt.phases, phaseLines(p))
			require.Equal(t, tt.batches, batchIDs(p.Batches()))
			require.Equal(t, tt.warnings, nilIfEmpty(problemLines(p.Warnings)))
			for _, ph := range p.Phases {
				if !ph.Done() {
					require.NotEmpty(t, ph.Body, "phase %s runs with an empty prompt", ph.DisplayID)
				}
			}
		})
	}
}

// What the shapes' agents are told: the linked file, and prose blockquotes
// kept in the body.
func TestParseRealPlanShapeBodies(t *testing.T) {
	t.Parallel()
	p, err := ParseFile(filepath.Join(plansDir, "real", "linked.md"))
	require.NoError(t, err)
	require.Equal(t, "# Phase 2: Persistence\n\n- [ ] Postgres repository for stock\n- [x] Choose the driver (pgx)\n", p.Phase("2").Body)
	require.Equal(t, "phases/phase-2-storage.md", p.Phase("2").BodyFile)

	p, err = ParseFile(filepath.Join(plansDir, "real", "blockquotes.md"))
	require.NoError(t, err)
	require.Contains(t, p.Phase("2").Body, "> **Status:** not started — waiting on the design review.\n")
	require.True(t, strings.HasSuffix(p.Phase("5").Body, "> tracked separately.\n"), p.Phase("5").Body)
}

// A linked file changes the plan's hash (a resume notices the edit); a plan
// without links hashes as its bytes alone, as before links were read.
func TestHashCoversLinkedFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	plan := filepath.Join(dir, "plan.md")
	require.NoError(t, os.WriteFile(plan, []byte("| Phase | Name | Depends On |\n|---|---|---|\n| 1 | A | - |\n| 2 | [B](p2.md) | 1 |\n\n## Phase 1: A\nx\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p2.md"), []byte("first\n"), 0o644))
	p, err := ParseFile(plan)
	require.NoError(t, err)
	before := p.Hash()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p2.md"), []byte("second\n"), 0o644))
	p, err = ParseFile(plan)
	require.NoError(t, err)
	require.NotEqual(t, before, p.Hash())

	src := []byte("| Phase | Depends On |\n|---|---|\n| 1 | - |\n\n## Phase 1: A\nx\n")
	plain, err := Parse("p.md", src)
	require.NoError(t, err)
	sum := sha256.Sum256(src)
	require.Equal(t, hex.EncodeToString(sum[:]), plain.Hash())
}

// A link that leaves the repository, or names a missing file, is an error
// at the row; the repository is the nearest directory holding .git.
func TestLinkedFileRefused(t *testing.T) {
	t.Parallel()
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	require.NoError(t, os.MkdirAll(filepath.Join(repo, ".git"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(repo, "docs"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(top, "secret.md"), []byte("outside\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(repo, "shared.md"), []byte("inside\n"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(top, "secret.md"), filepath.Join(repo, "docs", "link.md")))
	plan := filepath.Join(repo, "docs", "plan.md")
	require.NoError(t, os.WriteFile(plan, []byte(`| Phase | Name | Depends On |
|---|---|---|
| 1 | [Up](../../secret.md) | - |
| 2 | [Abs](/etc/passwd.md) | - |
| 3 | [Gone](missing.md) | - |
| 4 | [Sym](link.md) | - |
| 5 | [Shared](../shared.md) | - |
`), 0o644))
	p, err := ParseFile(plan)
	var verr *ValidationError
	require.ErrorAs(t, err, &verr)
	var got []string
	for _, pr := range verr.Problems {
		got = append(got, pr.Message)
	}
	require.Equal(t, []string{
		"phase 1 links ../../secret.md, which is outside the repository: a phase file must be inside it",
		"phase 2 links /etc/passwd.md, which is outside the repository: a phase file must be inside it",
		"phase 3 links missing.md, which does not exist (links are relative to the plan's directory)",
		"phase 4 links link.md, which is outside the repository: a phase file must be inside it",
	}, got)
	require.Equal(t, "inside\n", p.Phase("5").Body)
}

// When ids repeat in the Phase column and no id column takes over, the
// error names the column that would key the phases.
func TestDuplicateIDsHintTheColumn(t *testing.T) {
	t.Parallel()
	_, err := Parse("p.md", []byte(`| Ref | Phase | Name | Depends On |
|---|---|---|---|
| R-1 | 1 | A | - |
| R-2 | 1 | B | R-1 |
`))
	require.ErrorContains(t, err, `p.md:4: duplicate phase id "1" (first defined at line 3): ids repeat in column "Phase" but column "Ref" has one per row: head that column "ID"`)
}

// "Yes" alone in a Parallel column lets the phases saying it run together;
// "No" keeps a phase to itself.
func TestParallelYesAlone(t *testing.T) {
	t.Parallel()
	p, err := Parse("p.md", []byte(`| Phase | Depends On | Parallel |
|---|---|---|
| 1 | - | - |
| 2 | 1 | Yes |
| 3 | 1 | No |
| 4 | 1 | yes |
`))
	require.NoError(t, err)
	require.Equal(t, [][][]string{{{"1"}}, {{"2", "4"}, {"3"}}}, batchIDs(p.Batches()))
}

// A phase the plan marks done needs no body: no warning, nothing bodiless.
func TestDonePhaseNeedsNoBody(t *testing.T) {
	t.Parallel()
	p, err := Parse("p.md", []byte("| Phase | Depends On | Status |\n|---|---|---|\n| 1 | - | ✅ |\n| 2 | 1 | Waived |\n| 3 | 2 | ⬜ |\n\n## Phase 3: Last\nx\n"))
	require.NoError(t, err)
	require.Empty(t, p.Warnings)
	require.Empty(t, p.Bodiless())
}
