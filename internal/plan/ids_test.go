package plan

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

func TestNormalizeID(t *testing.T) {
	t.Parallel()
	tests := map[string]phaseid.ID{
		"Phase 2-A":  "2a",
		"2A":         "2a",
		"phase 3":    "3",
		"PHASE 10b":  "10b",
		"Phase2A":    "2a",
		" 2 a ":      "2a",
		"**2A**":     "2a",
		"Phaseout":   "phaseout",
		"1.5":        "1.5",
		"0.5":        "0.5",
		"1..2":       "1.2",
		"Phase 1.":   "1",
		".5":         "5",
		"WU-01":      "wu01",
		"F1.2":       "f1.2",
		"":           "",
		"Phase":      "",
		"Fase Ü":     "faseü",
		"#3":         "3",
		"Phases 1":   "1",
		"phase_4":    "4",
		"Phase 2-A:": "2a",
	}
	for in, want := range tests {
		require.Equal(t, want, NormalizeID(in), "NormalizeID(%q)", in)
	}
}

func TestParseRefs(t *testing.T) {
	t.Parallel()
	type r = ref
	tests := []struct {
		in   string
		want []ref
	}{
		{"-", nil},
		{"—", nil},
		{"–", nil},
		{"None", nil},
		{"nothing", nil},
		{"n/a", nil},
		{"", nil},
		{"None (first phase)", nil},
		{"Phase 1", []ref{{text: "1", id: "1"}}},
		{"**Phase 1**", []ref{{text: "1", id: "1"}}},
		{"`1`", []ref{{text: "1", id: "1"}}},
		{"Phase 0 (or nothing if skipped)", []ref{{text: "0", id: "0"}}},
		{"2A, 2B and 2C", []ref{{text: "2A", id: "2a"}, {text: "2B", id: "2b"}, {text: "2C", id: "2c"}}},
		{"2A, 2B, 2C", []ref{{text: "2A", id: "2a"}, {text: "2B", id: "2b"}, {text: "2C", id: "2c"}}},
		{"1 & 2", []ref{{text: "1", id: "1"}, {text: "2", id: "2"}}},
		{"Phase 1 complete", []ref{{text: "1", id: "1"}}},
		{"1–4", []ref{{text: "1–4", isRange: true, lo: 1, hi: 4}}},
		{"F1–F3", []ref{{text: "F1–F3", isRange: true, lo: 1, hi: 3, prefix: "f"}}},
		{"F1-F3", []ref{{text: "F1-F3", isRange: true, lo: 1, hi: 3, prefix: "f"}}},
		{"F1–F7 baseline", []ref{{text: "F1–F7", isRange: true, lo: 1, hi: 7, prefix: "f"}}},
		{"WU-01–03", []ref{{text: "WU-01–03", isRange: true, lo: 1, hi: 3, prefix: "wu"}}},
		{"WU-01–WU-03", []ref{{text: "WU-01–WU-03", isRange: true, lo: 1, hi: 3, prefix: "wu"}}},
		{"WU-01", []ref{{text: "WU-01", id: "wu01"}}},
		{"F1–G3", []ref{{text: "F1–G3"}}},
		{"all", []ref{{text: "all", all: true}}},
		{"All phases above", []ref{{text: "All phases above", all: true}}},
		{"1-4", []ref{{text: "1-4", isRange: true, lo: 1, hi: 4}}},
		{"Phases 1 to 4", []ref{{text: "1 to 4", isRange: true, lo: 1, hi: 4}}},
		{"Phase 4 - Phase 1", []ref{{text: "4 - Phase 1", isRange: true, lo: 1, hi: 4}}},
		{"2-A", []ref{{text: "2-A", id: "2a"}}},
		{"Phase 2-A, 3", []ref{{text: "2-A", id: "2a"}, {text: "3", id: "3"}}},
		{"[Phase 1](#phase-1)", []ref{{text: "1", id: "1"}}},
		{"#3", []ref{{text: "3", id: "3"}}},
		{"1; 2 / 3 + 4", []ref{{text: "1", id: "1"}, {text: "2", id: "2"}, {text: "3", id: "3"}, {text: "4", id: "4"}}},
		{"??", []ref{{text: "??"}}},
		{"2A 2B", []ref{{text: "2A", id: "2a"}, {text: "2B", id: "2b"}}},
		{"Phase 1 2 3", []ref{{text: "1", id: "1"}, {text: "2", id: "2"}, {text: "3", id: "3"}}},
		{"Phase 2 step 3", []ref{{text: "2", id: "2"}}},
	}
	for _, tt := range tests {
		got := parseRefs(tt.in, 7)
		require.Equal(t, 7, got.line)
		require.Equal(t, tt.want, got.refs, "parseRefs(%q)", tt.in)
	}
}

func TestParseRefsOptional(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]bool{
		"Phase 0 (or nothing if skipped)": true,
		"0 (if any)":                      true,
		"Phase 0 (optional)":              true,
		"0 (none if skipped)":             true,
		"Phase 0":                         false,
		"1 (see notes)":                   false,
		"nothing":                         false,
	} {
		require.Equal(t, want, parseRefs(in, 1).optional, "parseRefs(%q).optional", in)
	}
}

func TestParseStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in     string
		want   PlanStatus
		stated bool
	}{
		{"✅", StatusComplete, true},
		{"✅ Complete", StatusComplete, true},
		{"Complete", StatusComplete, true},
		{"**Done**", StatusComplete, true},
		{"done.", StatusComplete, true},
		{"[x]", StatusComplete, true},
		{"⏭️", StatusSkipped, true},
		{"⏭️ Skipped", StatusSkipped, true},
		{"skipped", StatusSkipped, true},
		{"⬜", StatusOpen, true},
		{"🔄 In progress", StatusOpen, true},
		{"Pending", StatusOpen, true},
		{"Incomplete", StatusOpen, true},
		{"Not done", StatusOpen, true},
		{"", StatusOpen, false},
		{"-", StatusOpen, false},
		// The first mark or word decides.
		{"⬜/⏭️", StatusOpen, true},
		{"⬜ Not Started | ⏭️ Skipped (tools present)", StatusOpen, true},
		{"⏭️ Skipped (tools present)", StatusSkipped, true},
		{"Complete ✔️", StatusComplete, true},
		{"Done (⬜ QA)", StatusComplete, true},
		{"🚧 WIP", StatusOpen, true},
		{"⏸️ Blocked", StatusOpen, true},
		{"🟢 Done", StatusComplete, true},
	}
	for _, tt := range tests {
		got, stated := parseStatus(tt.in)
		require.Equal(t, tt.want, got, "parseStatus(%q)", tt.in)
		require.Equal(t, tt.stated, stated, "parseStatus(%q) stated", tt.in)
	}
}

func TestParseTitle(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in         string
		needPrefix bool
		ok         bool
		want       title
	}{
		{"Phase 2A: Backend API", true, true, title{display: "2A", id: "2a", name: "Backend API"}},
		{"Phase 2A — Backend API (est 8)", true, true, title{display: "2A", id: "2a", name: "Backend API", estimate: "8"}},
		{"Phase 2-A — Name (est 8)", true, true, title{display: "2-A", id: "2a", name: "Name", estimate: "8"}},
		{"Phase 2A - Name", true, true, title{display: "2A", id: "2a", name: "Name"}},
		{"Phase 3", true, true, title{display: "3", id: "3"}},
		{"Phase 1. Setup", true, true, title{display: "1", id: "1", name: "Setup"}},
		{"Phase 3: Glue ✅ Complete", true, true, title{display: "3", id: "3", name: "Glue", status: StatusComplete}},
		{"Phase 4: Docs (Estimate: 2 days) ⏭️", true, true, title{display: "4", id: "4", name: "Docs", estimate: "2 days", status: StatusSkipped}},
		{"PHASE 2B | Frontend", true, true, title{display: "2B", id: "2b", name: "Frontend"}},
		{"Phase: the plan", true, false, title{}},
		{"Phases", true, false, title{}},
		{"Overview", true, false, title{}},
		{"2A", true, false, title{}},
		{"2A", false, true, title{display: "2A", id: "2a"}},
		{"2A: Backend", false, true, title{display: "2A", id: "2a", name: "Backend"}},
		{"—", false, false, title{}},
		// Marks before "Phase" are decoration, or the status.
		{"🚀 Phase 1: Setup", true, true, title{display: "1", id: "1", name: "Setup"}},
		{"✅ Phase 2A — API", true, true, title{display: "2A", id: "2a", name: "API", status: StatusComplete}},
		{"⏭️ 4", false, true, title{display: "4", id: "4", status: StatusSkipped}},
		{"🚀 Overview", true, false, title{}},
	}
	for _, tt := range tests {
		got, ok := parseTitle(tt.in, tt.needPrefix)
		require.Equal(t, tt.ok, ok, "parseTitle(%q)", tt.in)
		require.Equal(t, tt.want, got, "parseTitle(%q)", tt.in)
	}
}

func TestLeadingNumber(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int{"2a": 2, "10": 10, "a": -1, "": -1, "1234567890": -1, "007b": 7} {
		require.Equal(t, want, leadingNumber(in), in)
	}
}
