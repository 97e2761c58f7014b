package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/autobuild-sh/autobuild/internal/failreport"
	"github.com/autobuild-sh/autobuild/internal/line"
	"github.com/autobuild-sh/autobuild/internal/state"
)

func planWithTestGate(gate string) string {
	return "# One\n\n| Phase | Depends On |\n|---|---|\n| 1 | - |\n\n## Phase 1: Only\n\n## Quality Gates\n\n- test: `" + gate + "`\n"
}

// An agent that exits 0 having changed nothing claims a success the gate
// disagrees with: verification_mismatch, and the retry prompt says the
// first attempt changed no file.
func TestZeroExitWithoutChangeIsAVerificationMismatch(t *testing.T) {
	t.Parallel()
	prompt := filepath.Join(t.TempDir(), "retry-prompt.md")
	// The gate fails whatever the tree holds, the base too, which the red
	// base check (verify.go) would refuse before the agent: off here.
	res, repo, _ := runPlanWith(t, planWithTestGate(`echo "--- FAIL: TestAdd (0.00s)"; exit 1`),
		`cp "$AUTOBUILD_PROMPT_FILE" `+prompt+`; echo "all done"`, func(c *Config) { c.Verify = line.VerifyOff })
	require.Equal(t, state.RunHalted, res.Status)
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Len(t, p.Attempts, 2)
	first := p.Attempts[0].Error
	require.Equal(t, failreport.VerificationMismatch, first.Type)
	require.Equal(t, "the agent exited 0 without changing any file, but test gate failed: 1 test failing (TestAdd)", first.Message)
	b, err := os.ReadFile(prompt)
	require.NoError(t, err)
	require.Contains(t, string(b), "it changed no file: the phase's work is still to be done")
}

// A test gate whose code does not compile is a broken build, blocked on
// the compiler's first error, and the retry prompt says so.
func TestTestGateThatDoesNotCompileIsATypecheckError(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not installed")
	}
	prompt := filepath.Join(t.TempDir(), "retry-prompt.md")
	agentShell := `cp "$AUTOBUILD_PROMPT_FILE" ` + prompt + `
printf 'module example.com/calc\n\ngo 1.22\n' > go.mod
printf 'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 2) != 4 {\n\t\tt.Fatal("no")\n\t}\n}\n' > calc_test.go`
	res, repo, _ := runPlan(t, planWithTestGate("go test ./..."), agentShell)
	require.Equal(t, state.RunHalted, res.Status)
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	first := p.Attempts[0].Error
	require.Equal(t, failreport.TypecheckError, first.Type, first.Message)
	require.Equal(t, "./calc_test.go:6:5: undefined: Add", first.BlockedOn)
	require.Contains(t, first.Message, "test gate failed: the code does not compile, so no test ran")
	b, err := os.ReadFile(prompt)
	require.NoError(t, err)
	require.Contains(t, string(b), "The build is broken: the code does not compile")
}

// An agent CLI whose own files are gone cannot start: agent_setup, with
// the reinstall command, and no retry is spent on it.
func TestBrokenAgentInstallHaltsWithTheReinstallCommand(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	missing := filepath.Join(t.TempDir(), "lib", "node_modules", "@anthropic-ai", "claude-code", "cli.js")
	res, repo, _ := runPlan(t, planWithTestGate("true"), "node "+missing)
	require.Equal(t, state.RunHalted, res.Status)
	p, err := state.Open(repo).LoadPhase("1")
	require.NoError(t, err)
	require.Len(t, p.Attempts, 1, "the retry is not spent")
	rep := p.Attempts[0].Error
	require.Equal(t, failreport.AgentSetup, rep.Type, rep.Message)
	require.Equal(t, "reinstall claude: npm install -g @anthropic-ai/claude-code", rep.SuggestedActions[0])
}
