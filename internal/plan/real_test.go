package plan

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

// The plans in testdata/plans/real are written the way people write them:
// the superplan template filled in, a plan edited by several hands, a plan
// with sections nested under a grouping heading, and a terse one. Each
// phase is summed up in one line so a misread shows as a one-line diff.

// phaseLine sums up what the parser read of a phase.
func phaseLine(ph *Phase) string {
	return fmt.Sprintf("%s %q deps=%s par=%s est=%q status=%q tasks=%d/%d files=%s row=%d section=%d",
		ph.DisplayID, ph.Name, phaseid.Join(ph.DependsOn, ","), phaseid.Join(ph.ParallelWith, ","),
		ph.Estimate, ph.Status, ph.TasksDone, ph.Tasks, strings.Join(ph.Files, ","), ph.Line, ph.SectionLine)
}

func phaseLines(p *Plan) []string {
	out := make([]string, len(p.Phases))
	for i, ph := range p.Phases {
		out[i] = phaseLine(ph)
	}
	return out
}

func TestParseRealPlans(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file     string
		title    string
		phases   []string
		batches  [][][]string
		gates    []string
		warnings []string
	}{
		{
			file:  "superplan.md",
			title: "Team Invites Implementation Plan",
			phases: []string{
				`0 "Bootstrap (if needed)" deps= par= est="5" status="skipped" tasks=0/1 files=.eslintrc.json row=36 section=61`,
				`1 "Setup" deps=0 par= est="3" status="complete" tasks=2/2 files=migrations/20250302_create_invites.sql,src/config.ts row=37 section=80`,
				`2A "Invite API" deps=1 par=2b,2c est="8" status="" tasks=1/4 files=src/api/invites/index.ts row=38 section=108`,
				`2B "Invite UI" deps=1 par=2a,2c est="5" status="" tasks=0/1 files=src/components/Invite/InviteDialog.tsx row=39 section=133`,
				`2C "Email templates" deps=1 par=2a,2b est="3" status="" tasks=0/1 files= row=40 section=148`,
				`3 "Integration" deps=2a,2b,2c par= est="5" status="" tasks=0/3 files= row=41 section=159`,
			},
			batches: [][][]string{{{"0"}}, {{"1"}}, {{"2A", "2B", "2C"}}, {{"3"}}},
			gates:   []string{"lint: npm run lint", "typecheck: npm run typecheck", "test: npm test"},
		},
		{
			file:  "sloppy.md",
			title: "Search revamp — plan v3",
			phases: []string{
				`P0 "Scaffolding" deps= par= est="2" status="complete" tasks=0/0 files= row=7 section=18`,
				`1 "Tokenizer a|b syntax" deps=p0 par= est="3" status="complete" tasks=2/2 files= row=8 section=22`,
				`2-A "Index writer" deps=1 par= est="8" status="" tasks=0/2 files=search/index/writer.go,search/index/segment.go row=9 section=30`,
				`2-B "Query parser" deps=1 par= est="" status="" tasks=0/1 files= row=10 section=41`,
				`3 "Ranking" deps=2a,2b par= est="5" status="" tasks=0/1 files= row=11 section=47`,
				`4 "Rollout" deps=3 par= est="" status="skipped" tasks=0/1 files= row=12 section=53`,
			},
			batches: [][][]string{{{"P0"}}, {{"1"}}, {{"2-A", "2-B"}}, {{"3"}}, {{"4"}}},
			gates:   []string{"build: go build ./...", "test: go test -race ./..."},
		},
		{
			file:  "nested.md",
			title: "Payments v2",
			phases: []string{
				`0 "Spike" deps= par= est="1d" status="complete" tasks=0/0 files= row=9 section=18`,
				`1 "Ledger schema" deps=0 par= est="2d" status="" tasks=0/2 files= row=10 section=24`,
				`2A "Stripe adapter" deps=1 par=2b est="3d" status="" tasks=0/2 files= row=11 section=32`,
				`2B "Adyen adapter" deps=1 par=2a est="3d" status="" tasks=0/1 files= row=12 section=44`,
				`3 "Reconciliation" deps=2a,2b,1 par= est="2d" status="" tasks=0/1 files= row=13 section=48`,
				`4 "Cut-over" deps=1,2a,2b,3 par= est="1d" status="" tasks=0/1 files= row=14 section=54`,
				`5 "ideas (not planned)" deps= par= est="" status="" tasks=0/0 files= row=0 section=62`,
			},
			batches:  [][][]string{{{"0"}, {"5"}}, {{"1"}}, {{"2A", "2B"}}, {{"3"}}, {{"4"}}},
			warnings: []string{`nested.md:62: warning: section "Phase 5" is not in the phase table; it runs all the same, as a phase of its own`},
		},
		{
			file:  "terse.md",
			title: "terse.md",
			phases: []string{
				`1 "Setup" deps= par= est="2" status="complete" tasks=0/0 files= row=3 section=11`,
				`2A "Build" deps=1 par= est="3" status="" tasks=0/2 files= row=4 section=14`,
				`2B "" deps=1 par= est="3" status="" tasks=0/0 files= row=5 section=18`,
				`3 "" deps=2a,2b par= est="1" status="complete" tasks=0/0 files= row=6 section=21`,
				`4 "Docs" deps=2a par= est="" status="skipped" tasks=0/0 files= row=7 section=24`,
				`5 "Ship" deps=3,4 par= est="" status="" tasks=0/0 files= row=8 section=27`,
			},
			batches: [][][]string{{{"1"}}, {{"2A", "2B"}}, {{"3", "4"}}, {{"5"}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(filepath.Join(plansDir, "real", tt.file))
			require.NoError(t, err)
			// As saved on Windows too: a byte order mark and CRLF line ends.
			crlf := append([]byte("\xef\xbb\xbf"), strings.ReplaceAll(string(src), "\n", "\r\n")...)
			for name, src := range map[string][]byte{"LF": src, "BOM+CRLF": crlf} {
				p, err := Parse(tt.file, src)
				require.NoError(t, err, name)
				require.Equal(t, tt.title, p.Title, name)
				require.Equal(t, tt.phases, phaseLines(p), name)
				require.Equal(t, tt.batches, batchIDs(p.Batches()), name)
				var gates []string
				for _, g := range p.Gates {
					gates = append(gates, g.Kind+": "+g.Command)
				}
				require.Equal(t, tt.gates, gates, name)
				require.Equal(t, tt.warnings, nilIfEmpty(problemLines(p.Warnings)), name)
			}
		})
	}
}

// A phase's body is what its agent is told: the section, without the rule
// that separates it from the next one, and without the next section.
func TestParseRealPlanBodies(t *testing.T) {
	t.Parallel()
	p, err := parseCorpus(t, "real/superplan.md")
	require.NoError(t, err)
	require.Equal(t, "### Phase 2C: Email templates\n\n"+
		"> **Depends On**: Phase 1\n"+
		"> **Can Run With**: Phase 2A, Phase 2B (USE PARALLEL SUB-AGENTS)\n"+
		"> **Estimate**: 3 points\n"+
		"> **Status**: ⬜ Not Started\n\n"+
		"- [ ] MJML template\n", p.Phase(NormalizeID("2C")).Body)
	// The last phase ends at the next H2, "## Testing Strategy".
	require.True(t, strings.HasSuffix(p.Phase("3").Body, "- [ ] **CHECKPOINT: Run `/compact focus on: done`**\n"), p.Phase("3").Body)

	p, err = parseCorpus(t, "real/sloppy.md")
	require.NoError(t, err)
	// Sections nested under "# Phases" end at "# Quality Gates".
	require.Equal(t, "## Phase 4 — Rollout\n\n- [ ] flags\n", p.Phase("4").Body)

	p, err = parseCorpus(t, "real/nested.md")
	require.NoError(t, err)
	// A deeper heading naming the phase's own id stays in its body.
	require.True(t, strings.HasSuffix(p.Phase(NormalizeID("2A")).Body, "#### Phase 2A notes\n\nRate limits are per-account.\n"), p.Phase(NormalizeID("2A")).Body)
}
