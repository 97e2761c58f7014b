package config

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/failure"
	"github.com/autobuild-sh/autobuild/internal/plan"
	"github.com/autobuild-sh/autobuild/internal/state"
)

// write puts text in a new repository root's autobuild.toml.
func write(t *testing.T, text string) string {
	t.Helper()
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, FileName), []byte(text), 0o644))
	return root
}

func TestLoadMissingFile(t *testing.T) {
	t.Parallel()
	cfg, err := Load(t.TempDir())
	require.NoError(t, err)
	require.Equal(t, &Config{}, cfg)
}

func TestLoadFull(t *testing.T) {
	t.Parallel()
	root := write(t, `# team settings
agent = ["claude", "./scripts/agent.sh --fast"]
max_parallel = 3
phase_timeout = "45m"
idle_timeout = "90s"
commit = "message-only"
scenario = "testdata/sim.json"

[gates]
test = ["go test ./...", "go test -race ./internal/..."]
build = "go build ./..."

[[classify]]
type = "rate_limited"
match = "quota exceeded"
in = "output"

[[classify]]
type = "dependency_missing"
match = "no such tool"
`)
	cfg, err := Load(root)
	require.NoError(t, err)
	require.Equal(t, &Config{
		Path:         filepath.Join(root, FileName),
		Agent:        []string{"claude", "./scripts/agent.sh --fast"},
		MaxParallel:  3,
		PhaseTimeout: Duration{45 * time.Minute},
		IdleTimeout:  Duration{90 * time.Second},
		Commit:       "message-only",
		Scenario:     filepath.Join(root, "testdata", "sim.json"),
		Gates: []plan.Gate{
			{Kind: "build", Command: "go build ./..."},
			{Kind: "test", Command: "go test ./..."},
			{Kind: "test", Command: "go test -race ./internal/..."},
		},
		Classify: []failure.Pattern{
			{Type: failreport.RateLimited, Match: "quota exceeded", In: "output"},
			{Type: failreport.DependencyMissing, Match: "no such tool"},
		},
	}, cfg)
}

func TestLoadAgentAsString(t *testing.T) {
	t.Parallel()
	cfg, err := Load(write(t, `agent = "codex"`))
	require.NoError(t, err)
	require.Equal(t, []string{"codex"}, cfg.Agent)
	require.Empty(t, cfg.Gates)
	require.Zero(t, cfg.PhaseTimeout.Duration)
}

func TestLoadAbsoluteScenario(t *testing.T) {
	t.Parallel()
	cfg, err := Load(write(t, `scenario = "/tmp/s.json"`))
	require.NoError(t, err)
	require.Equal(t, "/tmp/s.json", cfg.Scenario)
}

func TestLoadSchedule(t *testing.T) {
	t.Parallel()
	cfg, err := Load(write(t, `schedule = "eager"`))
	require.NoError(t, err)
	require.Equal(t, state.ScheduleEager, cfg.Schedule)
	cfg, err = Load(write(t, `agent = "sim"`))
	require.NoError(t, err)
	require.Empty(t, cfg.Schedule, "not set: the run's own, else batches")
}

func TestLoadErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, text, want string }{
		{"syntax", "agent = \"claude\"\nmax_parallel = = 3\n", ":2: "},
		{"unterminated string", "commit = \"auto\n", ":1: "},
		{"unknown top-level key", "agent = \"sim\"\n\nmax_paralel = 2\n", `:3: unknown key "max_paralel"`},
		{"unknown key in a table", "[gates]\ntest = \"x\"\n\n[runner]\nx = 1\n", `:4: unknown key "runner"`},
		{"unknown key in classify", "[[classify]]\ntype = \"timeout\"\nmatch = \"x\"\nregex = \"y\"\n", `:4: unknown key "classify.regex" (known keys: type, match, in)`},
		{"bad duration", "phase_timeout = \"30 minutes\"\n", `:1: phase_timeout: "30 minutes" is not a duration`},
		{"duration as a number", "\nidle_timeout = 30\n", `:2: idle_timeout: must be a quoted duration, such as "10m"`},
		{"zero duration", "phase_timeout = \"0s\"\n", "phase_timeout: must be more than 0"},
		{"bad commit mode", "agent = \"x\"\ncommit = \"always\"\n", `:2: commit: must be auto, message-only, single, not "always"`},
		{"bad schedule", "agent = \"x\"\n\nschedule = \"greedy\"\n", `:3: schedule: must be batches, eager, not "greedy"`},
		{"schedule as a number", "schedule = 1\n", `:1: schedule: must be "batches" or "eager", quoted`},
		{"bad gate kind", "[gates]\nbuild = \"make\"\ntests = \"go test ./...\"\n", ":3: gates.tests: unknown gate kind"},
		{"empty gate command", "[gates]\ntest = \" \"\n", ":2: gates.test: a gate command cannot be empty"},
		{"gate not a string", "[gates]\ntest = 3\n", "gates.test: must be a command"},
		{"bad failure type", "[[classify]]\ntype = \"test_failure\"\nmatch = \"a\"\n\n[[classify]]\ntype = \"oops\"\nmatch = \"b\"\n", `:5: classify[1]: failure pattern "b": unknown failure type "oops"`},
		{"bad regexp", "[[classify]]\ntype = \"timeout\"\nmatch = \"(\"\n", "classify[0]"},
		{"bad in", "[[classify]]\ntype = \"timeout\"\nmatch = \"x\"\nin = \"stdout\"\n", "classify[0]: failure pattern \"x\": in must be"},
		{"agent wrong type", "agent = 5\n", ":1: agent: must be a string or a list of strings"},
		{"agent list with a number", "agent = [\"claude\", 5]\n", "agent: must be a string or a list of strings"},
		{"empty agent list", "agent = []\n", "agent: the list is empty"},
		{"empty agent", "agent = \"\"\n", "agent: an agent cannot be empty"},
		{"negative max_parallel", "max_parallel = -1\n", ":1: max_parallel: must be 0"},
		{"max_parallel as a string", "max_parallel = \"4\"\n", ":1: max_parallel: must be a whole number"},
		{"pattern not a string", "[[classify]]\ntype = \"timeout\"\nmatch = 5\n", ":3: classify.match: must be a quoted string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := write(t, tt.text)
			_, err := Load(root)
			require.Error(t, err)
			require.Contains(t, err.Error(), filepath.Join(root, FileName))
			require.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestLoadUnreadable(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(root, FileName), 0o755))
	_, err := Load(root)
	require.ErrorContains(t, err, FileName)
}

func TestKeyLine(t *testing.T) {
	t.Parallel()
	text := "a = 1\n# b = 2\n[gates]  # comment\ntest = \"x\"\n[[classify]]\ntype = \"y\"\n\"quoted\" = 1\nx.y = 2\n"
	require.Equal(t, 1, keyLine(text, []string{"a"}))
	require.Equal(t, 3, keyLine(text, []string{"gates"}))
	require.Equal(t, 4, keyLine(text, []string{"gates", "test"}))
	require.Equal(t, 6, keyLine(text, []string{"classify", "type"}))
	require.Equal(t, 7, keyLine(text, []string{"classify", "quoted"}))
	require.Equal(t, 8, keyLine(text, []string{"classify", "x", "y"}))
	require.Equal(t, 0, keyLine(text, []string{"b"}))
}
