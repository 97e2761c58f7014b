package agent

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestResolve(t *testing.T) {
	t.Parallel()
	sim := []string{"/bin/autobuild", "sim-agent"}
	tests := []struct {
		spec    string
		want    Agent
		wantErr string
	}{
		{spec: "claude", want: Agent{Name: "claude", Args: []string{"claude", "-p", "--dangerously-skip-permissions", "--output-format", "text"}, RequiresResult: true}},
		{spec: " Codex ", want: Agent{Name: "codex", Args: []string{"codex", "exec", "--sandbox", "workspace-write", "-"}, RequiresResult: true}},
		{spec: "gemini", want: Agent{Name: "gemini", Args: presets["gemini"].Args, RequiresResult: true}},
		{spec: "aider", want: Agent{Name: "aider", Shell: presets["aider"].Shell, RequiresResult: true}},
		{spec: "sim", want: Agent{Name: "sim", Args: sim}},
		{spec: "./fix.sh", want: Agent{Name: "fix.sh", Args: []string{"./fix.sh"}}},
		{spec: "/opt/agents/run-agent", want: Agent{Name: "run-agent", Args: []string{"/opt/agents/run-agent"}}},
		{spec: "claude --model opus -p", want: Agent{Name: "claude", Shell: "claude --model opus -p"}},
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
	require.Contains(t, presets["aider"].Shell, "--no-auto-commits")
	require.Contains(t, presets["aider"].Shell, `"$AUTOBUILD_PROMPT_FILE"`)
	for _, name := range Presets() {
		_, ok := presets[name]
		require.True(t, ok, name)
	}
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
