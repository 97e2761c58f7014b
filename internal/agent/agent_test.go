package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/agent/preset"
)

func TestResolve(t *testing.T) {
	t.Parallel()
	sim := []string{"/bin/autobuild", "sim-agent"}
	tests := []struct {
		spec    string
		want    Agent
		wantErr string
	}{
		{spec: "claude", want: Agent{Name: "claude", Preset: "claude", Args: presetArgs(Agent{Preset: "claude"}), Env: claudeEnv(), RequiresResult: true}},
		{spec: " Codex ", want: Agent{Name: "codex", Preset: "codex", Args: []string{"codex", "exec", "--json", "--sandbox", "workspace-write", "-"}, RequiresResult: true}},
		{spec: "gemini", want: Agent{Name: "gemini", Preset: "gemini", Args: presetArgs(Agent{Preset: "gemini"}), RequiresResult: true}},
		{spec: "aider", want: Agent{Name: "aider", Preset: "aider", Args: presetArgs(Agent{Preset: "aider"}), RequiresResult: true}},
		{spec: "sim", want: Agent{Name: "sim", Args: sim}},
		{spec: "./fix.sh", want: Agent{Name: "fix.sh", Args: []string{"./fix.sh"}}},
		{spec: "/opt/agents/run-agent", want: Agent{Name: "run-agent", Args: []string{"/opt/agents/run-agent"}}},
		{spec: "claude --model opus", want: Agent{Name: "claude", Preset: "claude", Args: append(presetArgs(Agent{Preset: "claude"}), "--model", "opus"),
			Env: claudeEnv(), Extra: []string{"--model", "opus"}, RequiresResult: true}},
		{spec: `CLAUDE --append-system-prompt "be brief"`, want: Agent{Name: "claude", Preset: "claude",
			Args: append(presetArgs(Agent{Preset: "claude"}), "--append-system-prompt", "be brief"), Env: claudeEnv(),
			Extra: []string{"--append-system-prompt", "be brief"}, RequiresResult: true}},
		{spec: "claudette --fast", want: Agent{Name: "claudette", Shell: "claudette --fast"}},
		{spec: "FOO=1 ./bin/fix.sh --all", want: Agent{Name: "fix.sh", Shell: "FOO=1 ./bin/fix.sh --all"}},
		{spec: "", wantErr: "empty agent"},
		{spec: "   ", wantErr: "empty agent"},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			t.Parallel()
			got, err := Resolve(tt.spec, sim)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			got.Spec = "" // TestResolveSpec
			require.Equal(t, tt.want, got)
		})
	}
}

func TestResolvePresetsAreCopies(t *testing.T) {
	t.Parallel()
	a, err := Resolve("claude", nil)
	require.NoError(t, err)
	a.Args[0] = "changed"
	b, err := Resolve("claude", nil)
	require.NoError(t, err)
	require.Equal(t, "claude", b.Args[0], "a caller's change must not leak into the preset table")
}

func TestResolveSimNeedsACommand(t *testing.T) {
	t.Parallel()
	_, err := Resolve("sim", nil)
	require.Error(t, err)
}

func TestPresetsAvoidCommits(t *testing.T) {
	t.Parallel()
	// aider commits every edit unless told not to; the engine owns git.
	aider := strings.Join(presetArgs(Agent{Preset: "aider"}), " ")
	require.Contains(t, aider, "--no-auto-commits")
	require.Contains(t, aider, `"$AUTOBUILD_PROMPT_FILE" "$@"`)
}

// claudeEnv is what the claude preset adds to the environment here.
func claudeEnv() []string {
	p, _ := preset.Named("claude")
	return p.Environment(os.Getenv)
}

// A preset's extra arguments come after its own, from autobuild.toml
// first and then from --agent.
func TestWithConfig(t *testing.T) {
	t.Parallel()
	a, err := Resolve("claude --model opus", nil)
	require.NoError(t, err)
	a = a.WithConfig([]string{"--max-turns", "40"}, []string{"IS_SANDBOX=1"})
	require.Equal(t, append(presetArgs(Agent{Preset: "claude"}), "--max-turns", "40", "--model", "opus"), a.Args)
	require.Equal(t, []string{"DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_MAX_RETRIES=2", "IS_SANDBOX=1"}, a.Env)
	require.Equal(t, "claude --model opus", a.Spec, "run.json keeps the --agent value, not the file's arguments")
	plain, err := Resolve("my-agent", nil)
	require.NoError(t, err)
	require.Equal(t, plain, plain.WithConfig([]string{"x"}, nil), "a plain command takes no preset arguments")
}

// claude's retry budget is autobuild's default only: a value in
// autobuild.toml replaces it, and one in the environment autobuild runs in
// keeps the adapter from setting it at all.
func TestClaudeRetryBudgetYieldsToTheUser(t *testing.T) {
	a, err := Resolve("claude", nil)
	require.NoError(t, err)
	a = a.WithConfig(nil, []string{"CLAUDE_CODE_MAX_RETRIES=9", "IS_SANDBOX=1"})
	require.Equal(t, []string{"DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_MAX_RETRIES=9", "IS_SANDBOX=1"}, a.Env)

	t.Setenv("CLAUDE_CODE_MAX_RETRIES", "5")
	require.Equal(t, []string{"DISABLE_AUTOUPDATER=1"}, claudeEnv())
	a, err = Resolve("claude", nil)
	require.NoError(t, err)
	require.Equal(t, []string{"DISABLE_AUTOUPDATER=1"}, a.Env)
}

func TestAgentCommand(t *testing.T) {
	t.Parallel()
	require.Equal(t, "claude -p", Agent{Args: []string{"claude", "-p"}}.Command())
	require.Equal(t, "a | b", Agent{Shell: "a | b"}.Command())
}

func TestEnv(t *testing.T) {
	t.Parallel()
	env := Env(EnvInput{PhaseID: "2a", Attempt: 2, MaxAttempts: 2, PlanPath: "/r/plan.md", PromptFile: "/r/p.md"})
	require.Equal(t, []string{
		"AUTOBUILD_PHASE_ID=2a", "AUTOBUILD_ATTEMPT=2", "AUTOBUILD_MAX_ATTEMPTS=2",
		"AUTOBUILD_PLAN=/r/plan.md", "AUTOBUILD_PROMPT_FILE=/r/p.md",
	}, env)
	env = Env(EnvInput{PhaseID: "1", Attempt: 1, MaxAttempts: 2, SimScenario: "/s.json"})
	require.Contains(t, env, "AUTOBUILD_SIM_SCENARIO=/s.json")
}

// Spec gives the agent back to --agent: what run.json keeps so a resume
// needs no --agent.
func TestResolveSpec(t *testing.T) {
	t.Parallel()
	wd, err := os.Getwd()
	require.NoError(t, err)
	for spec, want := range map[string]string{
		"Claude":                     "claude",
		"claude --model 'opus 4'":    "claude --model 'opus 4'",
		"sim":                        "sim",
		"my-agent":                   "my-agent",
		"/opt/bin/fix.sh":            "/opt/bin/fix.sh",
		"./fix.sh":                   filepath.Join(wd, "fix.sh"),
		"bin/fix":                    filepath.Join(wd, "bin", "fix"),
		"FOO=1 ./fix.sh --all 'a b'": "FOO=1 ./fix.sh --all 'a b'",
	} {
		a, err := Resolve(spec, []string{"/bin/autobuild", "sim-agent"})
		require.NoError(t, err, spec)
		require.Equal(t, want, a.Spec, spec)
		back, err := Resolve(a.Spec, []string{"/bin/autobuild", "sim-agent"})
		require.NoError(t, err, spec)
		require.Equal(t, a.Name, back.Name, "%s: the spec resolves to the same agent", spec)
	}
}
