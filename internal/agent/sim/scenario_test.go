package sim

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/phaseid"
)

func TestParseScenario(t *testing.T) {
	t.Parallel()
	sc, err := ParseScenario([]byte(`{
  "default": {"steps": [{"say": "default"}]},
  "phases": {
    "Phase 2-B": [
      {"steps": [{"say": ""}, {"write": "a/b.go", "content": "x", "delay": "10ms"}], "exit": 1, "stderr": ["boom"]},
      {"steps": [{"append": "a/b.go", "content": "y"}, {"delete": "old"}, {"sleep": "1ms"}], "result": {"status": "complete"}}
    ],
    "3": [{"hang": true, "ignore_sigterm": true}]
  }
}`))
	require.NoError(t, err)
	require.Contains(t, sc.Phases, phaseid.ID("2b"), "phase keys are normalized")
	a := sc.Phases["2b"][0]
	require.Equal(t, "say", a.Steps[0].Kind)
	require.Equal(t, "", a.Steps[0].Say)
	require.Equal(t, "write", a.Steps[1].Kind)
	require.Equal(t, "a/b.go", a.Steps[1].Path())
	require.Equal(t, 1, a.Exit)
	require.Equal(t, []string{"boom"}, a.Stderr)
	require.Equal(t, []string{"append", "delete", "sleep"}, kinds(sc.Phases["2b"][1].Steps))
	require.Equal(t, "complete", sc.Phases["2b"][1].Result["status"])
	require.True(t, sc.Phases["3"][0].Hang)
	require.True(t, sc.Phases["3"][0].IgnoreSigterm)
}

func kinds(steps []Step) []string {
	var out []string
	for _, s := range steps {
		out = append(out, s.Kind)
	}
	return out
}

func TestParseScenarioErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, json, want string }{
		{"syntax", "{\n  \"phases\": {,}\n}", "line 2"},
		{"empty", "", "empty scenario"},
		{"unknown top-level key", `{"phase": {}}`, `unknown field "phase"`},
		{"unknown attempt key", `{"default": {"exitcode": 1}}`, `unknown field "exitcode"`},
		{"wrong type", `{"default": {"exit": "1"}}`, "exit must be a number"},
		{"unknown step key", `{"phases": {"1": [{"steps": [{"sya": "x"}]}]}}`, `phases["1"][0] (attempt 1): steps[0]: unknown key "sya"`},
		{"step without action", `{"default": {"steps": [{"delay": "1s"}]}}`, "default: steps[0]: a step needs one of"},
		{"step with two actions", `{"default": {"steps": [{"say": "x", "write": "y"}]}}`, "a step does one thing, this one has say and write"},
		{"content on say", `{"default": {"steps": [{"say": "x", "content": "y"}]}}`, "content belongs to write and append"},
		{"bad delay", `{"default": {"steps": [{"say": "x", "delay": "soon"}]}}`, `delay: "soon" is not a duration`},
		{"bad sleep", `{"default": {"steps": [{"sleep": "-1s"}]}}`, "negative"},
		{"escape with dots", `{"default": {"steps": [{"write": "../outside.go"}]}}`, "leaves the worktree"},
		{"escape hidden in the middle", `{"default": {"steps": [{"delete": "a/../../b"}]}}`, "leaves the worktree"},
		{"absolute path", `{"default": {"steps": [{"append": "/etc/passwd", "content": "x"}]}}`, "is absolute"},
		{"the worktree itself", `{"default": {"steps": [{"delete": "."}]}}`, "the worktree itself"},
		{"bad exit", `{"default": {"exit": 300}}`, "0 to 255"},
		{"no attempts", `{"phases": {"1": []}}`, "no attempts"},
		{"duplicate phase after normalizing", `{"phases": {"2a": [{}], "Phase 2A": [{}]}}`, "listed twice"},
		{"not a phase id", `{"phases": {"--": [{}]}}`, "not a phase id"},
		{"trailing value", `{} {}`, "more than one JSON value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := ParseScenario([]byte(tt.json))
			require.ErrorContains(t, err, tt.want)
		})
	}
}

func TestLoadScenario(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"default": {"exit": 3}}`), 0o644))
	sc, err := LoadScenario(path)
	require.NoError(t, err)
	require.Equal(t, 3, sc.Default.Exit)

	require.NoError(t, os.WriteFile(path, []byte(`{"default": {"exit": -1}}`), 0o644))
	_, err = LoadScenario(path)
	require.ErrorContains(t, err, path)

	_, err = LoadScenario(filepath.Join(dir, "missing.json"))
	require.ErrorIs(t, err, os.ErrNotExist)
}

func TestPick(t *testing.T) {
	t.Parallel()
	sc, err := ParseScenario([]byte(`{
  "default": {"exit": 9},
  "phases": {"2b": [{"exit": 1}, {"exit": 2}], "3": [{"exit": 3}]}
}`))
	require.NoError(t, err)
	tests := []struct {
		phase   phaseid.ID
		attempt int
		exit    int
	}{
		{"2b", 1, 1}, {"2b", 2, 2}, {"2b", 3, 2}, {"2b", 0, 1},
		{"3", 2, 3}, {"7", 1, 9},
	}
	for _, tt := range tests {
		require.Equal(t, tt.exit, sc.Pick(tt.phase, tt.attempt).Exit, "phase %s attempt %d", tt.phase, tt.attempt)
	}
	builtin := (&Scenario{}).Pick("4", 1)
	require.Equal(t, 0, builtin.Exit)
	require.NotEmpty(t, builtin.Steps)
}
