package metrics

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	goldenfile "github.com/autobuild-sh/autobuild/internal/golden"
	"github.com/autobuild-sh/autobuild/internal/history"
)

// golden compares got with testdata/name (rewritten with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Equal(t, filepath.Join("testdata", name), got)
}

func weekReport() Report {
	recs := week()
	recs[2].FailureMessage = "" // a record may lack a message
	return Compute(recs, Filter{}, t0.Add(24*time.Hour))
}

func TestReportGolden80(t *testing.T) {
	t.Parallel()
	got := Render(weekReport(), Options{Width: 80, Look: Plain, Loc: time.UTC})
	golden(t, "report-80.txt", got)
	for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		require.LessOrEqual(t, ansi.StringWidth(l), 80, "%q", l)
	}
}

func TestReportAtNarrowWidths(t *testing.T) {
	t.Parallel()
	for _, w := range []int{10, 40, 52, 64} {
		got := Render(weekReport(), Options{Width: w, Look: Color, Loc: time.UTC})
		for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
			require.LessOrEqual(t, ansi.StringWidth(l), max(w, MinWidth), "width %d: %q", w, ansi.Strip(l))
		}
		require.Contains(t, ansi.Strip(got), "WARNING", "the alerts are there at width %d", w)
	}
	golden(t, "report-40.txt", Render(weekReport(), Options{Width: 40, Look: Plain, Loc: time.UTC}))
}

// NO_COLOR allows bold and reverse, not colours; a pipe gets plain text.
func TestLooks(t *testing.T) {
	t.Parallel()
	colour := regexp.MustCompile(`\x1b\[[0-9;]*(3[0-9]|9[0-7]|38;)`)
	plain := Render(weekReport(), Options{Width: 80, Look: Plain, Loc: time.UTC})
	require.NotContains(t, plain, "\x1b")
	mono := Render(weekReport(), Options{Width: 80, Look: Mono, Loc: time.UTC})
	require.Contains(t, mono, "\x1b[1m", "bold headings")
	require.NotRegexp(t, colour, mono)
	require.Equal(t, plain, ansi.Strip(mono), "the same text")
	color := Render(weekReport(), Options{Width: 80, Look: Color, Loc: time.UTC})
	require.Regexp(t, colour, color)
	require.Equal(t, plain, ansi.Strip(color))
}

func TestAnEmptyHistorySaysWhatToDo(t *testing.T) {
	t.Parallel()
	got := Render(Compute(nil, Filter{}, t0), Options{Width: 80})
	require.Contains(t, got, "No attempts recorded yet")
	require.Contains(t, got, ".autobuild/history.jsonl")
	got = Render(Compute(nil, Filter{Plans: []string{"docs/a/rather/long/path/to/the/plan.md"}}, t0), Options{Width: 40})
	require.Contains(t, got, "docs/a/rather/long/path/to/the/plan.md", "the plan is named whole")
	require.NotContains(t, got, "…", "wrapped, not cut")
}

func TestTextFromAgentsIsCleaned(t *testing.T) {
	t.Parallel()
	b := newBuilder().newRun().fail("1", "agent_error", msg("boom \x1b]0;pwned\x07\x1b[2J here"), agent("evil\x1b[31m"))
	got := Render(Compute(b.recs, Filter{}, t0), Options{Width: 80, Look: Plain})
	require.NotContains(t, got, "\x1b")
	require.NotContains(t, got, "\x07")
}

// The --json schema: every key, with its JSON type, as documented in the
// README. A change here is a change of the contract.
func TestJSONSchema(t *testing.T) {
	t.Parallel()
	data, err := json.Marshal(weekReport())
	require.NoError(t, err)
	var doc any
	require.NoError(t, json.Unmarshal(data, &doc))
	var paths []string
	schema(doc, "", &paths)
	sort.Strings(paths)
	golden(t, "schema.txt", strings.Join(paths, "\n")+"\n")
	snake := regexp.MustCompile(`^[a-z0-9_.\[\]]+$`)
	for _, p := range paths {
		key, _, _ := strings.Cut(p, " ")
		require.Regexp(t, snake, key, "JSON keys are snake_case")
	}

	// The empty report has the same keys for everything that is always
	// there: lists are [], rates null.
	data, err = json.Marshal(Compute(nil, Filter{}, t0))
	require.NoError(t, err)
	var empty map[string]any
	require.NoError(t, json.Unmarshal(data, &empty))
	for _, k := range []string{"alerts", "by_type", "by_agent", "phases", "run_list", "top_failures", "warnings"} {
		require.Equal(t, []any{}, empty[k], k)
	}
	require.Contains(t, empty, "failure_rate")
	require.Nil(t, empty["failure_rate"])
	require.Equal(t, float64(SchemaVersion), empty["schema_version"])
	_ = history.Version
}

// schema lists "path type" for every value in doc; arrays by their first
// element.
func schema(doc any, path string, out *[]string) {
	switch v := doc.(type) {
	case map[string]any:
		if path != "" {
			*out = append(*out, path+" object")
		}
		for k, e := range v {
			p := k
			if path != "" {
				p = path + "." + k
			}
			schema(e, p, out)
		}
	case []any:
		*out = append(*out, path+" array")
		if len(v) > 0 {
			schema(v[0], path+"[]", out)
		}
	case string:
		*out = append(*out, path+" string")
	case float64:
		*out = append(*out, path+" number")
	case bool:
		*out = append(*out, path+" bool")
	case nil:
		*out = append(*out, path+" null")
	}
}

// Attempts made on workers (--executor temporal) are counted per worker;
// a history of local runs has no such section, and no by_worker key.
func TestReportByWorker(t *testing.T) {
	t.Parallel()
	b := newBuilder().newRun().ok("1", worker("w1")).fail("2", "test_failure", worker("w2")).
		ok("2", retry(), worker("w1")).ok("3", worker("w2")).ok("4").end("complete")
	rep := Compute(b.recs, Filter{}, t0.Add(time.Hour))
	require.Equal(t, []WorkerStats{
		{Worker: "w1", Attempts: 2, Failures: 0, FailureRate: f(0)},
		{Worker: "w2", Attempts: 2, Failures: 1, FailureRate: f(0.5)},
	}, rep.ByWorker)
	got := Render(rep, Options{Width: 80, Look: Plain, Loc: time.UTC})
	require.Contains(t, got, "By worker")
	require.Regexp(t, `w2\s+2\s+1\s+50%`, got)

	local := Compute(newBuilder().newRun().ok("1").end("complete").recs, Filter{}, t0.Add(time.Hour))
	require.NotContains(t, Render(local, Options{Width: 80, Look: Plain, Loc: time.UTC}), "By worker")
	data, err := json.Marshal(local)
	require.NoError(t, err)
	require.NotContains(t, string(data), "by_worker")

	evil := newBuilder().newRun().ok("1", worker("w\x1b]0;pwned\x07\x1b[2J")).end("complete")
	require.NotContains(t, Render(Compute(evil.recs, Filter{}, t0.Add(time.Hour)), Options{Width: 80, Look: Plain}), "\x1b")
}
